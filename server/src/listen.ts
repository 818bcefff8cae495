// Runs the app on a socket: opens the database, loads the secret key, listens, and closes cleanly.
import * as path from "node:path";
import type { FastifyInstance } from "fastify";
import { buildApp, type AppOptions } from "./app";
import { openDatabase, type Database } from "./store/database";
import { sealedSample } from "./sources/source-store";
import { loadOrCreateSecretKey } from "./store/secret-key";

export const DEFAULT_HOST = "127.0.0.1";
export const DEFAULT_PORT = 8787;
export const DEFAULT_DEPLOY_DELAY_MS = 1500;

export interface ServerOptions extends Partial<Omit<AppOptions, "db">> {
  /** The SQLite file (created if absent), or ":memory:". */
  dbPath: string;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Called with the built app before it listens (extra hooks, e.g. a test's request counter). */
  configure?: (app: FastifyInstance) => void;
}

export interface RunningServer {
  url: string;
  app: FastifyInstance;
  db: Database;
  /** Stops accepting connections, lets in-flight requests finish, then closes the database. */
  close(): Promise<void>;
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const { dbPath, host = DEFAULT_HOST, port = DEFAULT_PORT, configure, ...appOptions } = options;
  const db = openDatabase(dbPath);
  try {
    // Said in the server's log once it has one (a key file found open to others).
    const warnings: string[] = [];
    const app = await buildApp({
      deployDelayMs: DEFAULT_DEPLOY_DELAY_MS,
      rateLimits: "spec",
      dataDir: dbPath === ":memory:" ? process.cwd() : path.dirname(path.resolve(dbPath)),
      secretKey: appOptions.secretKey ?? loadOrCreateSecretKey(dbPath, process.env, sealedSample(db), (message) => warnings.push(message)),
      ...appOptions,
      db,
    });
    for (const message of warnings) app.log.warn(message);
    configure?.(app);
    await app.listen({ host, port });
    const address = app.server.address();
    const boundPort = typeof address === "object" && address ? address.port : port;
    const urlHost = host.includes(":") ? `[${host}]` : host;
    let closed: Promise<void> | undefined;
    return {
      url: `http://${urlHost}:${boundPort}`,
      app,
      db,
      close() {
        closed ??= app.close().then(() => {
          db.close();
        });
        return closed;
      },
    };
  } catch (error) {
    db.close();
    throw error;
  }
}
