// The sdk's modules import one another without a circle: a circle makes the order in which
// CommonJS runs them (and so which exports are still undefined) depend on who is imported first,
// and it hides which module is the lower layer (the field table's types under the documents' schemas,
// the transport under pacing and retry under the client's options). Type-only imports count: they
// tie the modules as much, in a reader's head and in the declaration files.
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../support/pulumi";

const SDK_SRC = path.join(repoRoot(), "sdk", "src");

function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? sourceFiles(path.join(dir, entry.name)) : [path.join(dir, entry.name)]))
    .filter((file) => file.endsWith(".ts") && !file.endsWith(".d.ts"));
}

/** The sdk modules a module imports (relative specifiers, resolved to their files). */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, "utf8"), true, true);
  return importedFiles
    .map(({ fileName }) => fileName)
    .filter((specifier) => specifier.startsWith("."))
    .map((specifier) => {
      const target = path.resolve(path.dirname(file), specifier);
      return fs.existsSync(`${target}.ts`) ? `${target}.ts` : path.join(target, "index.ts");
    });
}

/** Every circle of the graph, each once (as found from its first module in file order). */
function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const found = new Map<string, string[]>();
  const state = new Map<string, "open" | "done">();
  const visit = (module: string, trail: string[]) => {
    state.set(module, "open");
    for (const next of graph.get(module) ?? []) {
      if (state.get(next) === "open") {
        const circle = [...trail.slice(trail.indexOf(next)), next];
        found.set([...circle].sort().join(" "), circle);
      } else if (!state.has(next)) visit(next, [...trail, next]);
    }
    state.set(module, "done");
  };
  for (const module of graph.keys()) if (!state.has(module)) visit(module, [module]);
  return [...found.values()];
}

describe("the sdk's module graph", () => {
  it("has no import circle", () => {
    const graph = new Map(sourceFiles(SDK_SRC).map((file) => [file, importsOf(file)]));
    const named = circles(graph).map((circle) => circle.map((file) => path.relative(SDK_SRC, file)).join(" -> "));
    expect(named).toEqual([]);
  });
});
