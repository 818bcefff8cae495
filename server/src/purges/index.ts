// The purge module: its table and its one route.
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { createPurgeStore } from "./purge-store";
import { definePurgeRoutes } from "./routes";

export { purgeMigrations } from "./migrations";
export { createPurgeStore, PURGE_RECORD_DAYS, type PurgeRecord } from "./purge-store";

export const purgesPlugin = fp(
  async function purges(app: FastifyInstance) {
    definePurgeRoutes(app, createPurgeStore(app.appOptions.db), app.appOptions.deliveryDomain);
  },
  { name: "purges", dependencies: ["auth", "route-registry"] },
);
