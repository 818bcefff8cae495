// Rendering the report model: Markdown for a pull-request comment, JSON with the same content.
import { describe, expect, it } from "vitest";
import { printable } from "@asset-delivery/sdk";
import { renderJson, renderMarkdown, type DriftReport, type SourceDrift } from "../../cli/src/drift";

const ID = "a".repeat(24);
const GONE_ID = "g".repeat(24);

/** A drifted dynamic Source with its way out, as compareSources makes it. */
function drifted(name: string, rest: Pick<SourceDrift, "id" | "status" | "fields">): SourceDrift {
  const urn = `urn:pulumi:prod::site::pulumi-nodejs:dynamic/assetdelivery:Source::${name}`;
  return {
    name,
    urn,
    shape: "dynamic",
    ...rest,
    wayOut: {
      revert: [`pulumi up --stack prod --target ${urn} --refresh`],
      keep: [`pulumi refresh --stack prod --target ${urn}`],
      keepNote: "then edit",
    },
  };
}

const wayOutLines = (name: string) => {
  const urn = `urn:pulumi:prod::site::pulumi-nodejs:dynamic/assetdelivery:Source::${name}`;
  return [
    `- Revert (the server gets the declaration back): \`pulumi up --stack prod --target ${urn} --refresh\``,
    `- Keep the server's values: \`pulumi refresh --stack prod --target ${urn}\`, then edit`,
  ];
};

const report: DriftReport = {
  stack: "prod",
  sourceCount: 5,
  drifted: [
    drifted("photos", {
      id: ID,
      status: "changed",
      fields: [
        { field: "deployment.cacheTtlError", declared: 300, live: 900 },
        { field: "deployment.imageError", declared: null },
        { field: "deployment.password", secret: true, declared: "set", live: "not set", flag: "passwordSet" },
        { field: "deployment.s3AccessKey", secret: true, declared: "set", live: "different" },
      ],
    }),
    drifted("old", { id: GONE_ID, status: "gone", fields: [] }),
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
      ...wayOutLines("photos"),
      "",
      `#### \`old\` · Source \`${GONE_ID}\`: gone: the server no longer has this Source`,
      "",
      ...wayOutLines("old"),
      "",
      "<sub>Declared: the stack's state as last applied. Live: the server now. Secrets are never shown. A write-only secret is never returned by the API: its change is seen through the flag shown, and a dynamic Source's `pulumi refresh` shows only that flag.</sub>",
      "",
    ]);
  });

  it("says retired for a Source disabled on the server, and agrees in number", () => {
    const retired: DriftReport = {
      stack: "dev",
      sourceCount: 1,
      drifted: [drifted("a", { id: ID, status: "retired", fields: [{ field: "enabled", declared: true, live: false }] })],
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
      drifted: [drifted("a", { id: ID, status: "changed", fields: [{ field: "name", declared: "a|b", live: "say `hi`" }] })],
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

describe("renderMarkdown's ways out", () => {
  it("prints the declaration Pulumi generated, in the stack's language, and the secret config it reads", () => {
    const urn = "urn:pulumi:prod::site::assetdelivery:index:Source::docs";
    const code = 'const docs = new assetdelivery.Source("docs", {\n    password: config.requireSecret("docsPassword"),\n});';
    const native: DriftReport = {
      stack: "prod",
      sourceCount: 1,
      drifted: [
        {
          name: "docs",
          id: ID,
          urn,
          shape: "native",
          status: "changed",
          fields: [{ field: "deployment.customDomains", declared: ["a.example.com"], live: ["a.example.com", "b.example.com"] }],
          wayOut: {
            revert: [`pulumi up --stack prod --target ${urn} --refresh`],
            keep: [`pulumi refresh --stack prod --target ${urn}`],
            keepNote: "then declare it in the program as below",
            declaration: { language: "nodejs", code, secretConfig: ["docsPassword"] },
          },
        },
      ],
      unmanaged: [],
    };
    expect(renderMarkdown(native).split("\n").slice(6)).toEqual([
      '| `deployment.customDomains` | `["a.example.com"]` | `["a.example.com","b.example.com"]` |',
      "",
      `- Revert (the server gets the declaration back): \`pulumi up --stack prod --target ${urn} --refresh\``,
      `- Keep the server's values: \`pulumi refresh --stack prod --target ${urn}\`, then declare it in the program as below`,
      "",
      "```typescript",
      ...code.split("\n"),
      "```",
      "",
      "Its secrets come from config: `pulumi config set --secret docsPassword <value>`.",
      "",
      "<sub>Declared: the stack's state as last applied. Live: the server now. Secrets are never shown. A list is compared whole (an API update replaces it whole); `pulumi refresh` names its entries.</sub>",
      "",
    ]);
  });
});

describe("renderJson", () => {
  it("writes the report model as is, absent values left out", () => {
    const text = renderJson(report);
    expect(JSON.parse(text)).toEqual(report);
    expect(text).toContain('{\n          "field": "deployment.imageError",\n          "declared": null\n        }');
  });
});

describe("a Source named with ESC, BEL and U+202E", () => {
  const hostile = "\u001b]0;owned\u0007 shop \u202egpj.exe";
  /** Text with nothing a terminal acts on left raw: printing it again changes nothing. */
  const printed = (text: string) => printable(text, { keepLineBreaks: true }) === text;
  const named: DriftReport = {
    stack: "dev",
    sourceCount: 2,
    drifted: [drifted("shop", { id: ID, status: "changed", fields: [{ field: "name", declared: "Shop", live: hostile }] })],
    unmanaged: [{ id: "u".repeat(24), name: hostile, type: "webproxy", serviceSubdomains: ["hand"] }],
  };

  it("reaches the Markdown report escaped: no control or override raw, in the table cells or the unmanaged list", () => {
    const text = renderMarkdown(named);
    expect(printed(text)).toBe(true);
    expect(text).toContain('| `name` | `"Shop"` | `"\\u001b]0;owned\\u0007 shop \\u202egpj.exe"` |');
    expect(text).toContain("| `\\u001b]0;owned\\u0007 shop \\u202egpj.exe` | webproxy |");
  });

  it("reaches the JSON report escaped, and parses back to the same name", () => {
    const text = renderJson(named);
    expect(printed(text)).toBe(true);
    expect(JSON.parse(text)).toEqual(named);
  });
});
