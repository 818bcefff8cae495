// The Go toolchain as tools/install-pulumi.sh uses it, for tests that run `go` themselves: the `go`
// on PATH, else /usr/local/go/bin/go, in the environment .ci/run's Go steps set (no workspace, the
// local toolchain only, go.mod and go.sum read, never rewritten).
import * as fs from "node:fs";
import * as path from "node:path";

/** The `go` binary: the one on PATH, else the usual install; throws when there is none. */
export function goBinary(): string {
  const onPath = (process.env.PATH ?? "")
    .split(path.delimiter)
    .filter(Boolean)
    .map((dir) => path.join(dir, "go"))
    .find((file) => fs.existsSync(file));
  const go = onPath ?? "/usr/local/go/bin/go";
  if (!fs.existsSync(go)) throw new Error("Go is needed (tools/install-pulumi.sh needs it too): no go on PATH nor /usr/local/go/bin/go");
  return go;
}

/** The environment of a `go` command: `go`'s folder first on PATH, GOWORK=off, GOTOOLCHAIN=local, -mod=readonly. */
export function goEnv(go = goBinary()): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PATH: `${path.dirname(go)}${path.delimiter}${process.env.PATH ?? ""}`,
    GOWORK: "off",
    GOTOOLCHAIN: "local",
    GOFLAGS: "-mod=readonly",
  };
}
