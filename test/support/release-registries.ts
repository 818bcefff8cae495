// Real package registries on 127.0.0.1 for the release rehearsal (test/release/): Verdaccio for npm,
// pypiserver for PyPI, a folder in the Go module proxy's layout for GOPROXY (tools/build-release.sh
// writes it), and an HTTP server of the plugin's release tarballs, as GitHub's release downloads
// would be. Each registry keeps its packages in a folder of the caller's; installed by
// tools/install-release-tools.sh.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import * as path from "node:path";
import { repoRoot } from "./pulumi";
import { startTestServer, type TestServer } from "./http-test-server";

export const RELEASE_VENV = path.join(repoRoot(), ".tools", "release-venv");
const VERDACCIO = path.join(repoRoot(), ".tools", "release-registries", "node_modules", ".bin", "verdaccio");

/** Installs the registries and Python's build tools when they are not current (seconds when they are). */
export function installReleaseTools(): void {
  execFileSync("bash", [path.join(repoRoot(), "tools", "install-release-tools.sh")], { stdio: "inherit" });
}

export interface Registry {
  url: string;
  close(): Promise<void>;
}

/** A free TCP port on 127.0.0.1 (for servers that take a port, not a listening socket). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Starts `command` and waits until `url` answers (the url it gives); its output goes to `log`. */
async function startProcess(command: string, args: string[], url: string, log: string): Promise<Registry> {
  const out = fs.openSync(log, "a");
  const child: ChildProcess = spawn(command, args, { stdio: ["ignore", out, out] });
  fs.closeSync(out);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${command} exited (${child.exitCode}):\n${fs.readFileSync(log, "utf8")}`);
    const answered = await fetch(url).then(
      () => true,
      () => false,
    );
    if (answered) break;
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`${command} did not answer at ${url} within 60 s:\n${fs.readFileSync(log, "utf8")}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    url,
    async close() {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

export interface NpmRegistry extends Registry {
  /** An npm user config (`--userconfig`) that sends @asset-delivery to this registry, with a token to publish. */
  userconfig: string;
}

/** Verdaccio in `dir`: @asset-delivery/* only (no uplink: everything else comes from npm's own registry). */
export async function startVerdaccio(dir: string): Promise<NpmRegistry> {
  fs.mkdirSync(path.join(dir, "storage"), { recursive: true });
  const config = path.join(dir, "config.yaml");
  fs.writeFileSync(
    config,
    [
      `storage: ${path.join(dir, "storage")}`,
      "auth:",
      "  htpasswd:",
      `    file: ${path.join(dir, "htpasswd")}`,
      "uplinks: {}",
      "packages:",
      '  "@asset-delivery/*":',
      "    access: $all",
      "    publish: $authenticated",
      "log: { type: stdout, format: pretty, level: warn }",
      "",
    ].join("\n"),
  );
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const registry = await startProcess(
    process.execPath,
    [VERDACCIO, "--config", config, "--listen", `127.0.0.1:${port}`],
    `${url}-/ping`,
    path.join(dir, "verdaccio.log"),
  );
  const created = await fetch(`${url}-/user/org.couchdb.user:release`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "release", password: "rehearsal-only" }),
  });
  const { token } = (await created.json()) as { token?: string };
  if (!token) throw new Error(`Verdaccio gave no token (${created.status})`);
  const userconfig = path.join(dir, "npmrc");
  fs.writeFileSync(userconfig, `@asset-delivery:registry=${url}\n//127.0.0.1:${port}/:_authToken=${token}\n`);
  return { ...registry, url, userconfig };
}

/** pypiserver serving (and taking uploads into) `dir`, without authentication. */
export async function startPypiServer(dir: string): Promise<Registry> {
  fs.mkdirSync(path.join(dir, "packages"), { recursive: true });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const args = [
    "run",
    "--host",
    "127.0.0.1",
    "--port",
    String(port),
    "--authenticate",
    ".",
    "--passwords",
    ".",
    path.join(dir, "packages"),
  ];
  const registry = await startProcess(
    path.join(RELEASE_VENV, "bin", "pypi-server"),
    args,
    `${url}simple/`,
    path.join(dir, "pypiserver.log"),
  );
  return { ...registry, url };
}

/** An HTTP server of the files in `dir`, as a GitHub release serves its assets; it records each request. */
export function startReleaseServer(dir: string): Promise<TestServer> {
  return startTestServer((request, response) => {
    const file = path.join(dir, path.basename(decodeURIComponent(request.path)));
    if (!fs.existsSync(file) || !fs.statSync(file).isFile()) return response.writeHead(404).end();
    response.writeHead(200, { "content-type": "application/octet-stream", "content-length": fs.statSync(file).size });
    fs.createReadStream(file).pipe(response);
  });
}
