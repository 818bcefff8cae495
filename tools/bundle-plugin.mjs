// Bundles the native plugin into one CommonJS script, the main script of its single executable
// application (tools/package-plugin.sh):
//
//   node tools/bundle-plugin.mjs OUT.js      # from provider/dist (run `npm run build` first)
//
// Beside OUT.js, OUT.meta.json: esbuild's metafile (input paths relative to the repo's root), the
// list of every file inside the bundle, from which tools/third-party-notices.mjs takes the packages
// whose licenses ship with the executable.
//
// esbuild, because the plugin is CommonJS that tsc already compiled: esbuild bundles it as it is,
// in about a second, with no configuration of its own, and keeps names readable in stack traces
// (the plugin's errors reach users through the engine). A SEA's `require` loads only Node's
// built-in modules, so everything else must be inside this one file.
//
// The entry is the npm package's bin, provider/bin/pulumi-resource-assetdelivery, as it is: the same
// Node version check and error handling (in a SEA the embedded Node is the one checked). What the
// plugin would load at run time from @pulumi/pulumi's folder is resolved here instead: its own
// copies of gRPC and of the protocol bindings are loaded with
// `createRequire(require.resolve("@pulumi/pulumi/package.json"))` (provider/src/engine/grpc.ts, their
// one loader), which no bundler follows. Each such call becomes a plain
// `require` of the very file that the same resolution finds now, so the bundle holds the copies the
// code would load; a createRequire of any other shape fails the bundle rather than leave a hole.
import { createRequire } from "node:module";
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const outfile = process.argv[2];
if (!outfile) {
  console.error("usage: node tools/bundle-plugin.mjs OUT.js");
  process.exit(2);
}
const providerDir = path.join(repoRoot, "provider");
const requireFromProvider = createRequire(path.join(providerDir, "package.json"));
const fromPulumi = createRequire(requireFromProvider.resolve("@pulumi/pulumi/package.json"));

const PULUMI_REQUIRE = /^const (\w+) = \(0, node_module_1\.createRequire\)\(require\.resolve\("@pulumi\/pulumi\/package\.json"\)\);$/m;

/** Replaces `createRequire(<@pulumi/pulumi>)(id)` calls by `require(<the file that finds>)`. */
const pulumiCopies = {
  name: "pulumi-copies",
  setup(b) {
    b.onLoad({ filter: /[\\/]provider[\\/]dist[\\/].*\.js$/ }, (args) => {
      let contents = readFileSync(args.path, "utf8");
      const declared = PULUMI_REQUIRE.exec(contents);
      if (declared) {
        const name = declared[1];
        contents = contents.replace(PULUMI_REQUIRE, "");
        const calls = new RegExp(`\\b${name}\\("([^"]+)"\\)`, "g");
        contents = contents.replace(calls, (_, id) => `require(${JSON.stringify(fromPulumi.resolve(id))})`);
        if (new RegExp(`\\b${name}\\b`).test(contents)) {
          throw new Error(`${args.path}: ${name} is used other than as ${name}("<module>"): bundle-plugin.mjs cannot resolve it`);
        }
      } else if (contents.includes("createRequire")) {
        throw new Error(`${args.path}: a createRequire that bundle-plugin.mjs does not know; the bundle would miss what it loads`);
      }
      return { contents, loader: "js" };
    });
  },
};

const bin = path.join(providerDir, "bin", "pulumi-resource-assetdelivery");

const { metafile } = await build({
  absWorkingDir: repoRoot,
  metafile: true,
  stdin: { contents: readFileSync(bin, "utf8"), resolveDir: path.dirname(bin), sourcefile: "pulumi-resource-assetdelivery", loader: "js" },
  bundle: true,
  platform: "node",
  target: "node22",
  format: "cjs",
  outfile,
  keepNames: true,
  legalComments: "none",
  logLevel: "warning",
  plugins: [pulumiCopies],
});
writeFileSync(outfile, eagerModules(readFileSync(outfile, "utf8")));
writeFileSync(outfile.replace(/\.js$/, "") + ".meta.json", JSON.stringify(metafile));

/** The bundle with each `__commonJS` module's body a parenthesized function expression (see the top of this file). */
function eagerModules(bundle) {
  const modules = bundle.split("__commonJS({\n").length - 1;
  let rewritten = 0;
  const eager = bundle.replace(/__commonJS\(\{\n {2}("[^"\n]+")\(([^)\n]*)\) \{\n([\s\S]*?)\n {2}\}\n\}\);/g, (_, key, params, body) => {
    rewritten++;
    return `__commonJS({\n  ${key}: (function(${params}) {\n${body}\n  })\n});`;
  });
  if (modules === 0 || rewritten !== modules) {
    throw new Error(
      `bundle-plugin.mjs: ${rewritten} of ${modules} esbuild modules made eager: esbuild's output is not the shape this expects`,
    );
  }
  return eager;
}
