// A private PostgreSQL cluster for one test file: the Pulumi CLI's `postgres://` backend (stacks,
// checkpoints and locks in one table) against a real server, never a mock and never a cluster the
// machine already runs. `initdb` into a new temporary folder, the server listening on 127.0.0.1 only,
// at a free port, with its socket in that folder; a role with a password and a database of its own.
// `stop()` stops the server and removes the folder (so does the test process's exit, should it
// come first).
//
// The server refuses to run as root: as root, the folder is given to the `postgres` user (which
// Debian's package creates) and the server's programs run as that user (`runuser -u postgres --`),
// which must be able to reach the OS temp folder; as anyone else, as the user running the tests.
// Debian keeps the programs in /usr/lib/postgresql/<version>/bin, off PATH
// (tools/install-system-packages.sh installs the package).
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";

export interface PostgresCluster {
  /**
   * The backend URL for `PULUMI_BACKEND_URL`, without the password: a pipeline gets that from a
   * secret, here `env` (loopback, so no TLS: `sslmode=disable`).
   */
  backendUrl: string;
  /** What a client of the backend needs besides the URL: `PGPASSWORD`, which the Pulumi CLI's driver (lib/pq) reads. */
  env: Record<string, string>;
  /** Runs SQL as the cluster's superuser; each row a line, its columns separated by `|`. */
  query(sql: string): string[];
  stop(): void;
}

const ROLE = "pulumi";
const DATABASE = "pulumi_state";
/** The server's own user when the tests run as root. */
const SERVER_USER = "postgres";

/** The folder of initdb, pg_ctl and psql: Debian's newest version, else PATH. */
function serverBinDir(): string {
  const debian = "/usr/lib/postgresql";
  const versions = fs.existsSync(debian)
    ? fs
        .readdirSync(debian)
        .filter((version) => fs.existsSync(path.join(debian, version, "bin", "initdb")))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length > 0) return path.join(debian, versions[0]!, "bin");
  const onPath = (process.env.PATH ?? "").split(path.delimiter).find((dir) => dir !== "" && fs.existsSync(path.join(dir, "initdb")));
  if (onPath) return onPath;
  throw new Error(
    "PostgreSQL's initdb was not found (in /usr/lib/postgresql/<version>/bin or on PATH): run `bash tools/install-system-packages.sh`",
  );
}

/** A loopback port nothing listens on now. */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function startPostgres(): Promise<PostgresCluster> {
  const bin = serverBinDir();
  const asRoot = process.getuid?.() === 0;
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "asset-delivery-pg-"));
  const data = path.join(folder, "data");
  if (asRoot) {
    const id = (flag: string) => Number(execFileSync("id", [flag, SERVER_USER], { encoding: "utf8" }).trim());
    fs.chownSync(folder, id("-u"), id("-g"));
  }
  const serverProgram = (program: string, args: string[]) =>
    execFileSync(
      asRoot ? "runuser" : path.join(bin, program),
      asRoot ? ["-u", SERVER_USER, "--", path.join(bin, program), ...args] : args,
      {
        cwd: folder, // the server's user may not enter the current folder
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
  let port = 0;
  const pgCtl = (...args: string[]) => serverProgram("pg_ctl", ["-D", data, "-w", "-t", "60", ...args]);
  let running = false;
  const stop = () => {
    process.off("exit", stop);
    try {
      if (running) {
        running = false;
        pgCtl("-m", "immediate", "stop");
      }
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  };
  process.on("exit", stop);
  try {
    // The socket folder is private, so only its owner (and root) reach the superuser without a password; over TCP, a password.
    serverProgram("initdb", [
      "-D",
      data,
      "-U",
      SERVER_USER,
      "--auth-local=trust",
      "--auth-host=scram-sha-256",
      "--no-locale",
      "-E",
      "UTF8",
      "--no-sync",
    ]);
    // A throwaway cluster: durability buys nothing here.
    const settings = [
      "listen_addresses=127.0.0.1",
      `unix_socket_directories=${folder}`,
      "fsync=off",
      "synchronous_commit=off",
      "full_page_writes=off",
    ];
    // Another process may take the free port between the look-up and the start: then another one.
    for (let attempt = 1; !running; attempt++) {
      port = await freePort();
      try {
        pgCtl(
          "-l",
          path.join(folder, "server.log"),
          "-o",
          [...settings, `port=${port}`].map((setting) => `-c ${setting}`).join(" "),
          "start",
        );
        running = true;
      } catch (error) {
        if (attempt === 3)
          throw new Error(`PostgreSQL did not start:\n${fs.readFileSync(path.join(folder, "server.log"), "utf8")}`, { cause: error });
      }
    }
    const query = (sql: string, database = "postgres") =>
      execFileSync(
        path.join(bin, "psql"),
        ["-X", "-A", "-t", "-q", "-v", "ON_ERROR_STOP=1", "-h", folder, "-p", String(port), "-U", SERVER_USER, "-d", database, "-c", sql],
        {
          encoding: "utf8",
          stdio: ["ignore", "pipe", "pipe"],
        },
      )
        .split("\n")
        .filter((line) => line !== "");
    const password = randomBytes(16).toString("hex");
    query(`CREATE ROLE ${ROLE} LOGIN PASSWORD '${password}'`);
    query(`CREATE DATABASE ${DATABASE} OWNER ${ROLE}`);
    return {
      backendUrl: `postgres://${ROLE}@127.0.0.1:${port}/${DATABASE}?sslmode=disable`,
      env: { PGPASSWORD: password },
      query: (sql) => query(sql, DATABASE),
      stop,
    };
  } catch (error) {
    stop();
    throw error;
  }
}
