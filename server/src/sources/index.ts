// The Sources module: the store and the service on the app (the crash and secrets tests read
// stored Sources through them), and the HTTP routes.
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { createSecretBox } from "../store/secret-box";
import { createSourceService, type SourceService } from "./source-service";
import { createSourceStore, type SourceStore } from "./source-store";
import { defineSourceRoutes } from "./source-routes";

declare module "fastify" {
  interface FastifyInstance {
    sourceStore: SourceStore;
    sourceService: SourceService;
  }
}

export type { SourceStore, SourceService };

export const sourcesPlugin = fp(
  async function sources(app: FastifyInstance) {
    const { db, now, deployLagMs, deployDelayMs, secretKey } = app.appOptions;
    const store = createSourceStore(db, createSecretBox(secretKey), now);
    const service = createSourceService(db, store, { now, deployLagMs, deployDelayMs });
    app.decorate("sourceStore", store);
    app.decorate("sourceService", service);
    defineSourceRoutes(app, store, service, now);
  },
  { name: "sources", dependencies: ["auth", "route-registry"] },
);
