// The layout of "Credits per Source" (server/src/dashboard/credit-chart.ts): which Sources get a
// line, and the axis.
import { chartLayout, largestSeries, MAX_SERIES, niceCeiling, type CreditSeries } from "../../server/src/dashboard/credit-chart";
import { describe, expect, it } from "vitest";

const series = (name: string, credits: number[]): CreditSeries => ({
  sourceId: name,
  name,
  credits,
  total: credits.reduce((a, b) => a + b, 0),
});

describe("largestSeries", () => {
  it("keeps every Source up to the maximum, largest first", () => {
    const kept = largestSeries([series("a", [1, 1]), series("b", [5, 0]), series("c", [0, 3])], MAX_SERIES);
    expect(kept.map((s) => s.name)).toEqual(["b", "c", "a"]);
  });

  it("sums the Sources beyond the maximum into one more line, day by day", () => {
    const many = Array.from({ length: MAX_SERIES + 3 }, (_, i) => series(`s${String(i).padStart(2, "0")}`, [i, 2 * i]));
    const kept = largestSeries(many, MAX_SERIES);
    expect(kept).toHaveLength(MAX_SERIES + 1);
    expect(kept[0]!.name).toBe(`s${MAX_SERIES + 2}`);
    // The three smallest: s00, s01, s02.
    expect(kept.at(-1)).toEqual({ name: "3 other Sources", credits: [3, 6], total: 9 });
  });
});

describe("the axis", () => {
  it("rounds the maximum up to 1, 2 or 5 times a power of ten", () => {
    expect([0, 0.37, 1, 1.2, 3, 7.5, 12, 480].map(niceCeiling)).toEqual([1, 0.5, 1, 2, 5, 10, 20, 500]);
  });

  it("places a point per day, from the bottom of the plot for 0 to its top for the maximum", () => {
    const layout = chartLayout({ days: ["2026-03-01", "2026-03-02", "2026-03-03"], series: [series("a", [0, 2.5, 5])] });
    const points = layout.series[0]!.points.split(" ").map((point) => point.split(",").map(Number));
    expect(points.map(([x]) => x)).toEqual([layout.plot.left, (layout.plot.left + layout.plot.right) / 2, layout.plot.right]);
    expect(points.map(([, y]) => y)).toEqual([layout.plot.bottom, (layout.plot.top + layout.plot.bottom) / 2, layout.plot.top]);
    expect(layout.yTicks.map((tick) => tick.label)).toEqual(["0", "1", "2", "3", "4", "5"]);
  });
});
