// The data-source functions' TypeScript arguments are their signatures' (functions/signatures.ts),
// from which the plugin's schema is made too: each program form takes exactly what its signature
// lists, required where the signature requires it.
import { describe, expectTypeOf, it } from "vitest";
import type { getReport, getReports, getSource, getSources, getVideoJob } from "../../provider/src";
import type { GET_REPORT, GET_REPORTS, GET_SOURCE, GET_SOURCES, GET_VIDEO_JOB, ArgsOf } from "../../provider/src/functions/signatures";

describe("the functions' TypeScript arguments", () => {
  it("are their signatures'", () => {
    expectTypeOf<Parameters<typeof getSource>[0]>().toEqualTypeOf<ArgsOf<typeof GET_SOURCE.args>>();
    expectTypeOf<NonNullable<Parameters<typeof getSources>[0]>>().toEqualTypeOf<ArgsOf<typeof GET_SOURCES.args>>();
    expectTypeOf<NonNullable<Parameters<typeof getReports>[0]>>().toEqualTypeOf<ArgsOf<typeof GET_REPORTS.args>>();
    expectTypeOf<Parameters<typeof getReport>[0]>().toEqualTypeOf<ArgsOf<typeof GET_REPORT.args>>();
    expectTypeOf<Parameters<typeof getVideoJob>[0]>().toEqualTypeOf<ArgsOf<typeof GET_VIDEO_JOB.args>>();
  });

  it("require what the signature requires", () => {
    expectTypeOf<ArgsOf<typeof GET_REPORT.args>>().toEqualTypeOf<{ id: string; includeRows?: boolean }>();
    expectTypeOf<ArgsOf<typeof GET_SOURCE.args>>().toEqualTypeOf<{ id?: string; subdomain?: string }>();
  });
});
