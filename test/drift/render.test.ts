// Rendering the report model: Markdown for a pull-request comment, JSON with the same content.
import { describe, expect, it } from "vitest";
import { renderJson, renderMarkdown, type DriftReport } from "../../cli/src/drift";

const ID = "a".repeat(24);
const GONE_ID = "g".repeat(24);

const report: DriftReport = {
  stack: "prod",
  sourceCount: 5,
  drifted: [
    {
      name: "photos",
      id: ID,
      status: "changed",
      fields: [
        { field: "deployment.cacheTtlError", declared: 300, live: 900 },
        { field: "deployment.imageError", declared: null },
        { field: "deployment.password", secret: true, declared: "set", live: "not set", flag: "passwordSet" },
        { field: "deployment.s3AccessKey", secret: true, declared: "set", live: "different" },
      ],
    },
    { name: "old", id: GONE_ID, status: "gone", fields: [] },
  ],
  unmanaged: [],
};

describe("renderMarkdown", () => {
  it("writes a summary line, then per Source its name, id, status and a field table", () => {
    expect(renderMarkdown(report).split("\n")).toEqual([
      "Drift: 2 of 5 Sources differ from stack `prod`.",
      "",
      `#### \`photos\` · Source \`${ID}\`: changed on the server`,
      "",
      "| Field | Declared | Live |",
      "| --- | --- | --- |",
      "| `deployment.cacheTtlError` | `300` | `900` |",
      "| `deployment.imageError` | `null` | *absent* |",
      "| `deployment.password` | *secret, set* | *changed: not set* (`passwordSet: false`) |",
      "| `deployment.s3AccessKey` | *secret, set* | *changed: different* |",
      "",
      `#### \`old\` · Source \`${GONE_ID}\`: gone: the server no longer has this Source`,
      "",
      "<sub>Declared: the stack's state as last applied. Live: the server now. Secrets are never shown.</sub>",
      "",
    ]);
  });

  it("says retired for a Source disabled on the server, and agrees in number", () => {
    const retired: DriftReport = {
      stack: "dev",
      sourceCount: 1,
      drifted: [{ name: "a", id: ID, status: "retired", fields: [{ field: "enabled", declared: true, live: false }] }],
      unmanaged: [],
    };
    const lines = renderMarkdown(retired).split("\n");
    expect(lines[0]).toBe("Drift: 1 of 1 Source differs from stack `dev`.");
    expect(lines[2]).toBe(`#### \`a\` · Source \`${ID}\`: retired: disabled on the server`);
  });

  it("keeps values that hold pipes or backticks inside their table cell", () => {
    const tricky: DriftReport = {
      stack: "dev",
      sourceCount: 1,
      drifted: [{ name: "a", id: ID, status: "changed", fields: [{ field: "name", declared: "a|b", live: "say `hi`" }] }],
      unmanaged: [],
    };
    expect(renderMarkdown(tricky).split("\n")[6]).toBe('| `name` | `"a\\|b"` | `` "say `hi`" `` |');
  });

  it("writes one line when nothing drifted", () => {
    expect(renderMarkdown({ stack: "dev", sourceCount: 3, drifted: [], unmanaged: [] })).toBe(
      "No drift: all 3 Sources of stack `dev` match the server.\n",
    );
    expect(renderMarkdown({ stack: "dev", sourceCount: 1, drifted: [], unmanaged: [] })).toBe(
      "No drift: the one Source of stack `dev` matches the server.\n",
    );
    expect(renderMarkdown({ stack: "dev", sourceCount: 0, drifted: [], unmanaged: [] })).toBe(
      "No drift: stack `dev` manages no Sources.\n",
    );
  });

  it("lists the enabled Sources no resource manages, after the drift or after the no-drift line", () => {
    const unmanaged = [{ id: "u".repeat(24), name: "Made | by hand", type: "webproxy", serviceSubdomains: ["hand", "made"] }];
    const table = [
      "",
      "Unmanaged: 1 enabled Source of the account is managed by no resource of stack `dev` (`asset-delivery import --stack dev` declares it).",
      "",
      "| Source | Name | Type | Subdomains |",
      "| --- | --- | --- | --- |",
      `| \`${"u".repeat(24)}\` | \`Made \\| by hand\` | webproxy | \`hand\`, \`made\` |`,
      "",
    ];
    expect(renderMarkdown({ stack: "dev", sourceCount: 3, drifted: [], unmanaged }).split("\n")).toEqual([
      "No drift: all 3 Sources of stack `dev` match the server.",
      ...table,
    ]);
    expect(
      renderMarkdown({ ...report, stack: "dev", unmanaged })
        .split("\n")
        .slice(-table.length),
    ).toEqual(table);
  });
});

describe("renderJson", () => {
  it("writes the report model as is, absent values left out", () => {
    const text = renderJson(report);
    expect(JSON.parse(text)).toEqual(report);
    expect(text).toContain('{\n          "field": "deployment.imageError",\n          "declared": null\n        }');
  });
});
