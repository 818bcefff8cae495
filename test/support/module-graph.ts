// The imports of a tree of TypeScript sources, read by the compiler's parser (no program, no
// type-check): which module each `import`/`export ... from` names, and the names it takes. What
// the static tests of a part's surface and of import circles read.
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";

/** One `import { a, type B } from "x"` or `export { a } from "x"`: the file, the module it resolves to, the names. */
export interface ModuleImport {
  file: string;
  specifier: string;
  /** The absolute path without extension (`.../core/index` for a folder), or the bare specifier (`@scope/pkg/sub`). */
  target: string;
  names: string[];
}

/** The TypeScript source files under `dir` (declaration files left out). */
export function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts") && !file.endsWith(".d.ts"))
    .map((file) => path.join(dir, file));
}

function resolved(file: string, specifier: string): string {
  if (!specifier.startsWith(".")) return specifier;
  const target = path.resolve(path.dirname(file), specifier);
  return fs.existsSync(`${target}.ts`) ? target : path.join(target, "index");
}

/** Every static import and re-export of `file`, type-only ones included. */
export function importsOf(file: string): ModuleImport[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest);
  return source.statements.flatMap((statement): ModuleImport[] => {
    if (!(ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement))) return [];
    if (!statement.moduleSpecifier || !ts.isStringLiteral(statement.moduleSpecifier)) return [];
    const specifier = statement.moduleSpecifier.text;
    const bindings = ts.isImportDeclaration(statement) ? statement.importClause?.namedBindings : statement.exportClause;
    const names =
      bindings && (ts.isNamedImports(bindings) || ts.isNamedExports(bindings))
        ? bindings.elements.map((element) => (element.propertyName ?? element.name).text)
        : ["*"];
    return [{ file, specifier, target: resolved(file, specifier), names }];
  });
}

/** The names a module exports by `export ... from` and its own `export` declarations. */
export function exportedNames(file: string): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest);
  return source.statements.flatMap((statement) => {
    if (ts.isExportDeclaration(statement) && statement.exportClause && ts.isNamedExports(statement.exportClause))
      return statement.exportClause.elements.map((element) => element.name.text);
    const exported = ts.canHaveModifiers(statement) && ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    if (!exported) return [];
    if (ts.isVariableStatement(statement)) return statement.declarationList.declarations.map((d) => d.name.getText(source));
    const name = (statement as ts.DeclarationStatement).name;
    return name ? [name.getText(source)] : [];
  });
}

/** Each circle of imports among `files` (relative imports only), as the files' paths relative to `dir`, once per circle. */
export function importCircles(dir: string, files: readonly string[]): string[][] {
  const known = new Set(files.map((file) => file.replace(/\.ts$/, "")));
  const edges = new Map(
    files.map((file) => [
      file.replace(/\.ts$/, ""),
      importsOf(file)
        .map((i) => i.target)
        .filter((target) => known.has(target)),
    ]),
  );
  const circles = new Map<string, string[]>();
  const visiting: string[] = [];
  const done = new Set<string>();
  const visit = (module: string): void => {
    visiting.push(module);
    for (const next of edges.get(module) ?? []) {
      const at = visiting.indexOf(next);
      if (at >= 0) {
        const circle = visiting.slice(at).map((m) => path.relative(dir, m));
        // One key per circle whichever module it was entered by.
        const start = circle.indexOf([...circle].sort()[0]!);
        const turned = [...circle.slice(start), ...circle.slice(0, start)];
        circles.set(turned.join(" -> "), turned);
      } else if (!done.has(next)) visit(next);
    }
    visiting.pop();
    done.add(module);
  };
  for (const module of edges.keys()) if (!done.has(module)) visit(module);
  return [...circles.values()];
}
