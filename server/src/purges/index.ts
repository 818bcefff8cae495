// The purge module: its table and its one route.
import type { FastifyInstance } from "fastify";
import { createPurgeStore } from "./purge-store";
import { definePurgeRoutes } from "./routes";

export { purgeMigrations } from "./migrations";
export { createPurgeStore, PURGE_RECORD_DAYS, type PurgeRecord } from "./purge-store";

export function registerPurges(app: FastifyInstance): void {
  definePurgeRoutes(app, createPurgeStore(app.appOptions.db), app.appOptions.deliveryDomain);
}
