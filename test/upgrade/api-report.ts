// The exported TypeScript API of a package as users compile against it: every export of each entry
// point its package.json declares (the built declarations in dist/, `npm run build`), one line per
// exported value and per member of an exported type, with its type as the compiler prints it (a
// class's value also by its construct signatures and static members, which `typeof X` hides). A
// release's report is kept beside its recorded states (test/upgrade/recorded/v<version>/api/);
// `breakingApiChanges` lists what a later build removed or changed. A changed line is counted as
// breaking whichever way it changed: telling a widened type from a narrowed one is left to the
// person acknowledging it. (api-extractor's reports, the usual tool, would add a dependency for the
// same comparison of lines.)
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { repoRoot } from "../support/pulumi";

/** The packages whose API is checked. */
export const API_PACKAGES = ["sdk", "provider"] as const;

/** Types longer than this (zod schemas' inferred types) are kept as their hash: any change still shows. */
const LONGEST_TYPE = 400;
const FORMAT = ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.WriteArrowStyleSignature;

function printed(text: string): string {
  // A type named through its module (`import("<path>").Name`) by its name: no checkout's path in a report.
  const flat = text.replace(/import\("[^"]*"\)\./g, "").replace(/\s+/g, " ");
  return flat.length <= LONGEST_TYPE ? flat : `sha256:${createHash("sha256").update(flat).digest("hex").slice(0, 16)}`;
}

type ApiPackage = (typeof API_PACKAGES)[number];

/** The entry points `@asset-delivery/<pkg>` declares types for (package.json `exports`), as built. */
function entryPoints(pkg: ApiPackage): EntryPoint[] {
  const dir = path.join(repoRoot(), pkg);
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as {
    name: string;
    exports: Record<string, string | { types?: string }>;
  };
  const entries = Object.entries(manifest.exports)
    .filter(([subpath, target]) => typeof target === "object" && target.types && !subpath.startsWith("./dist/"))
    .map(([subpath, target]) => ({
      name: `${manifest.name}${subpath.slice(1)}`,
      file: path.join(dir, (target as { types: string }).types),
    }));
  for (const entry of entries) if (!fs.existsSync(entry.file)) throw new Error(`${entry.file} is missing: run npm run build`);
  return entries;
}

/** Each package's report (one compiler run for all): sorted lines `<entry> <export>[.<member>][?]: <type>`. */
export function apiReports(): Record<ApiPackage, string[]> {
  return declarationReports(Object.fromEntries(API_PACKAGES.map((pkg) => [pkg, entryPoints(pkg)])) as Record<ApiPackage, EntryPoint[]>);
}

/** An entry point's name as users import it (`@asset-delivery/provider/core`) and its declaration file. */
export interface EntryPoint {
  name: string;
  file: string;
}

/** The report of each group of declaration files, from one compiler run. */
export function declarationReports<K extends string>(groups: Record<K, readonly EntryPoint[]>): Record<K, string[]> {
  const program = ts.createProgram(
    Object.values<readonly EntryPoint[]>(groups).flatMap((list) => list.map((e) => e.file)),
    { strict: true, noEmit: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext },
  );
  const checker = program.getTypeChecker();
  // What the runtime declares (Error's statics, from TypeScript's lib and @types/node) is not the package's API.
  const ofRuntime = (declaration: ts.Declaration) => {
    const file = declaration.getSourceFile();
    return program.isSourceFileDefaultLibrary(file) || /[\\/]node_modules[\\/]@types[\\/]node[\\/]/.test(file.fileName);
  };
  const report = (list: readonly EntryPoint[]): string[] => {
    const lines: string[] = [];
    for (const entry of list) {
      const module = checker.getSymbolAtLocation(program.getSourceFile(entry.file)!);
      if (!module) continue;
      for (const exported of checker.getExportsOfModule(module))
        lines.push(...exportLines(checker, `${entry.name} ${exported.name}`, exported, ofRuntime));
    }
    return [...new Set(lines)].sort();
  };
  return Object.fromEntries(Object.entries<readonly EntryPoint[]>(groups).map(([key, list]) => [key, report(list)])) as Record<K, string[]>;
}

/** The lines of one export: its value's type, and a type's own text and members. */
function exportLines(
  checker: ts.TypeChecker,
  name: string,
  exported: ts.Symbol,
  ofRuntime: (declaration: ts.Declaration) => boolean,
): string[] {
  const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
  const declaration = symbol.declarations?.[0];
  if (!declaration) return [];
  const lines: string[] = [];
  if (symbol.flags & ts.SymbolFlags.Value) {
    const valueType = checker.getTypeOfSymbolAtLocation(symbol, declaration);
    lines.push(`${name}: ${printed(checker.typeToString(valueType, undefined, FORMAT))}`);
    // A class's value prints as `typeof X`, which says nothing of `new X(...)` nor of its statics.
    if (symbol.flags & ts.SymbolFlags.Class) lines.push(...classValueLines(checker, name, valueType, ofRuntime));
  }
  if (symbol.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias | ts.SymbolFlags.Class | ts.SymbolFlags.Enum)) {
    const type = checker.getDeclaredTypeOfSymbol(symbol);
    lines.push(`${name} (type): ${printed(checker.typeToString(type, undefined, FORMAT | ts.TypeFormatFlags.InTypeAlias))}`);
    // The members of an object type; not those of a union's or a primitive's (String's methods).
    const members =
      type.flags & ts.TypeFlags.Object && !checker.isArrayType(type) && !checker.isTupleType(type) ? checker.getPropertiesOfType(type) : [];
    // Symbol-keyed members (`__@iterator@703`) are named by the compiler's counters: not an API.
    for (const member of members.filter((m) => !m.name.startsWith("__@"))) {
      const optional = member.flags & ts.SymbolFlags.Optional ? "?" : "";
      const memberType = checker.getTypeOfSymbolAtLocation(member, member.declarations?.[0] ?? declaration);
      lines.push(`${name}.${member.name}${optional}: ${printed(checker.typeToString(memberType, undefined, FORMAT))}`);
    }
  }
  return lines;
}

/**
 * A class's construct signatures (one line, overloads in declaration order: `X (new): new (a: A) => X`)
 * and its static members, inherited ones too (`X (static) get: ...`); not `prototype` (the instance
 * type, which the class's own lines list), nor a private static, nor the runtime's (Error's).
 */
function classValueLines(
  checker: ts.TypeChecker,
  name: string,
  valueType: ts.Type,
  ofRuntime: (declaration: ts.Declaration) => boolean,
): string[] {
  const lines: string[] = [];
  const constructs = valueType
    .getConstructSignatures()
    .map((signature) => checker.signatureToString(signature, undefined, FORMAT, ts.SignatureKind.Construct));
  if (constructs.length > 0) lines.push(`${name} (new): ${printed(constructs.join(" & "))}`);
  const isApi = (member: ts.Symbol) => {
    const declared = member.declarations?.[0];
    if (member.name === "prototype" || member.name.startsWith("__@") || !declared) return false;
    return !(ts.getCombinedModifierFlags(declared) & ts.ModifierFlags.Private) && !ofRuntime(declared);
  };
  for (const member of checker.getPropertiesOfType(valueType).filter(isApi)) {
    const optional = member.flags & ts.SymbolFlags.Optional ? "?" : "";
    const memberType = checker.getTypeOfSymbolAtLocation(member, member.declarations![0]!);
    lines.push(`${name} (static) ${member.name}${optional}: ${printed(checker.typeToString(memberType, undefined, FORMAT))}`);
  }
  return lines;
}

/** What a user of the `before` report can no longer compile against: each export or member removed or changed. */
export function breakingApiChanges(before: readonly string[], after: readonly string[]): string[] {
  const key = (line: string) => line.slice(0, line.indexOf(": "));
  const now = new Map(after.map((line) => [key(line), line]));
  const changes: string[] = [];
  for (const line of before) {
    const found = now.get(key(line));
    if (found === undefined) {
      const optional = now.get(key(line).replace(/\?$/, "")) ?? now.get(`${key(line)}?`);
      changes.push(optional ? `${key(line)}: made ${key(line).endsWith("?") ? "required" : "optional"}` : `${key(line)}: removed`);
    } else if (found !== line) {
      changes.push(`${key(line)}: changed from ${line.slice(key(line).length + 2)} to ${found.slice(key(line).length + 2)}`);
    }
  }
  return changes.sort();
}
