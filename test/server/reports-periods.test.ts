// Calendar arithmetic of reports: periods, keys, the end of a day and the last complete day.
import { describe, expect, it } from "vitest";
import { periodOf, reportKeyOf } from "../../server/src/reports/periods";
import { endOfDay, parseDay, yesterdayOf } from "../../server/src/usage/days";

const seconds = (iso: string) => Date.parse(iso) / 1000;

describe("report periods", () => {
  it("daily types cover the day; month-to-date types start on the 1st; both end at the next 00:00 UTC", () => {
    expect(periodOf("cdn_logs", "2024-02-29")).toEqual({ start: seconds("2024-02-29T00:00:00Z"), end: seconds("2024-03-01T00:00:00Z") });
    expect(periodOf("credit_analytics_mtd", "2024-12-31")).toEqual({
      start: seconds("2024-12-01T00:00:00Z"),
      end: seconds("2025-01-01T00:00:00Z"),
    });
    expect(periodOf("image_analytics", "2024-03-01")).toEqual({
      start: seconds("2024-03-01T00:00:00Z"),
      end: seconds("2024-03-02T00:00:00Z"),
    });
  });

  it("keys are <report_type>_<yyyymmdd>", () => {
    expect(reportKeyOf("credit_analytics_daily", "2024-01-05")).toBe("credit_analytics_daily_20240105");
  });

  it("parses only real calendar dates", () => {
    expect(parseDay("2024-02-29")).toBe("2024-02-29");
    expect(() => parseDay("2023-02-29")).toThrow(/calendar date/);
    expect(() => parseDay("2024-2-1")).toThrow(/YYYY-MM-DD/);
  });

  it("a day ends at the next 00:00 UTC; the last complete day is the one before today", () => {
    expect(endOfDay("2024-02-28")).toBe(Date.parse("2024-02-29T00:00:00Z"));
    expect(endOfDay("2024-12-31")).toBe(Date.parse("2025-01-01T00:00:00Z"));
    expect(yesterdayOf(Date.parse("2024-03-01T23:59:59.999Z"))).toBe("2024-02-29");
    expect(yesterdayOf(Date.parse("2024-03-01T00:00:00Z"))).toBe("2024-02-29");
  });
});
