// api-report.ts on small declaration files and reports: what the report holds of a class (its
// construct signatures and statics, beside its members), and each kind of breaking change
// breakingApiChanges names, additions not.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { breakingApiChanges, declarationReports } from "./api-report";

describe("declarationReports", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "api-report-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("reports a class's construct signatures and static members (inherited too, not private ones), beside its instance members", () => {
    const file = path.join(dir, "index.d.ts");
    fs.writeFileSync(
      file,
      [
        "declare class Base { static get(name: string, id: string): Base; static isInstance(obj: unknown): obj is Base; }",
        "export declare class Source extends Base {",
        "  static readonly kind: string;",
        "  private static cache;",
        "  static fromId?: (id: string) => Source;",
        "  readonly name: string;",
        "  constructor(name: string, args: { enabled?: boolean }, opts?: { parent?: Source });",
        "}",
        "export declare class Client { constructor(url: string); constructor(url: string, key: string); close(): Promise<void>; }",
        "export declare const version: string;",
        "export {};", // Base is not exported
      ].join("\n"),
    );
    expect(declarationReports({ pkg: [{ name: "@scope/pkg", file }] }).pkg).toEqual([
      "@scope/pkg Client (new): new (url: string) => Client & new (url: string, key: string) => Client",
      "@scope/pkg Client (type): Client",
      "@scope/pkg Client.close: () => Promise<void>",
      "@scope/pkg Client: typeof Client",
      "@scope/pkg Source (new): new (name: string, args: { enabled?: boolean | undefined; }, opts?: { parent?: Source | undefined; } | undefined) => Source",
      "@scope/pkg Source (static) fromId?: ((id: string) => Source) | undefined",
      "@scope/pkg Source (static) get: (name: string, id: string) => Base",
      "@scope/pkg Source (static) isInstance: (obj: unknown) => obj is Base",
      "@scope/pkg Source (static) kind: string",
      "@scope/pkg Source (type): Source",
      "@scope/pkg Source.name: string",
      "@scope/pkg Source: typeof Source",
      "@scope/pkg version: string",
    ]);
  });
});

describe("breakingApiChanges", () => {
  const before = [
    "@scope/pkg Source (new): new (name: string, args: SourceArgs, opts?: CustomResourceOptions) => Source",
    "@scope/pkg Source (static) get: (name: string, id: string) => Source",
    "@scope/pkg Source (type): Source",
    "@scope/pkg Source.name: Output<string>",
    "@scope/pkg Source: typeof Source",
    "@scope/pkg SourceArgs (type): SourceArgs",
    "@scope/pkg SourceArgs.enabled?: boolean | undefined",
    "@scope/pkg SourceArgs.name: string",
    "@scope/pkg createClient: (options: ClientOptions) => Client",
  ];

  it("finds none between a report and itself, nor for additions (an export, a member, a static)", () => {
    const after = [
      ...before,
      "@scope/pkg Source (static) isInstance: (obj: unknown) => obj is Source",
      "@scope/pkg SourceArgs.tags?: string[] | undefined",
      "@scope/pkg getSource: (id: string) => Promise<Source>",
    ].sort();
    expect(breakingApiChanges(before, before)).toEqual([]);
    expect(breakingApiChanges(before, after)).toEqual([]);
  });

  // A class's overloads are one line of the report (declarationReports): one added changes that line,
  // named for a person to judge (an added overload breaks no call; one put first may pick another).
  it("names an overload added as a change of its line, not as an addition", () => {
    const overload =
      "new (name: string, args: SourceArgs, opts?: CustomResourceOptions) => Source & new (name: string, id: string) => Source";
    const after = before.map((line) => (line.startsWith("@scope/pkg Source (new): ") ? `@scope/pkg Source (new): ${overload}` : line));
    expect(breakingApiChanges(before, after)).toEqual([
      `@scope/pkg Source (new): changed from new (name: string, args: SourceArgs, opts?: CustomResourceOptions) => Source to ${overload}`,
    ]);
  });

  it("names each export or member removed, made optional or required, or changed, constructors and statics included", () => {
    const after = [
      "@scope/pkg Source (new): new (name: string, args: SourceArgs, opts: CustomResourceOptions) => Source",
      "@scope/pkg Source (type): Source",
      "@scope/pkg Source.name?: Output<string> | undefined",
      "@scope/pkg Source: typeof Source",
      "@scope/pkg SourceArgs (type): SourceArgs",
      "@scope/pkg SourceArgs.enabled: boolean",
      "@scope/pkg SourceArgs.name: number",
    ];
    expect(breakingApiChanges(before, after)).toEqual([
      "@scope/pkg Source (new): changed from new (name: string, args: SourceArgs, opts?: CustomResourceOptions) => Source to new (name: string, args: SourceArgs, opts: CustomResourceOptions) => Source",
      "@scope/pkg Source (static) get: removed",
      "@scope/pkg Source.name: made optional",
      "@scope/pkg SourceArgs.enabled?: made required",
      "@scope/pkg SourceArgs.name: changed from string to number",
      "@scope/pkg createClient: removed",
    ]);
  });
});
