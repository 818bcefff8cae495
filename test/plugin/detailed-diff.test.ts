// The detailed diff of the native plugin: each changed leaf by its property path.
import { describe, expect, it } from "vitest";
import { leafChanges, type DetailedDiff, type DiffKind } from "../../provider/src/engine/detailed-diff";
import { UNKNOWN } from "../../provider/src/plugin/wire";

function changes(olds: unknown, news: unknown): Record<string, DiffKind> {
  const out: DetailedDiff = new Map();
  leafChanges(olds, news, ["deployment"], out);
  return Object.fromEntries(out);
}

describe("plugin detailed diff", () => {
  it("names changed leaves, list members by index, added and removed ones", () => {
    expect(
      changes(
        { cacheTtlValue: 86400, customDomains: ["a.example", "b.example"], imageError: null, robotsTxt: "origin" },
        {
          cacheTtlValue: 7200,
          customDomains: ["a.example", "c.example", "d.example"],
          imageError: "https://e.example/x.png",
          robotsTxt: "origin",
        },
      ),
    ).toEqual({
      "deployment.cacheTtlValue": "update",
      "deployment.customDomains[1]": "update",
      "deployment.customDomains[2]": "add",
      "deployment.imageError": "add",
    });
  });

  it("names a removed member and a value not known yet", () => {
    expect(changes({ customDomains: ["a.example"], defaultParams: { w: 10 } }, { customDomains: [], defaultParams: UNKNOWN })).toEqual({
      "deployment.customDomains[0]": "delete",
      "deployment.defaultParams": "update",
    });
  });

  it("names nothing when nothing changed", () => {
    expect(changes({ defaultParams: { auto: "format" } }, { defaultParams: { auto: "format" } })).toEqual({});
  });
});
