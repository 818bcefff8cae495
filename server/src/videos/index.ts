// The video module: the job table, its HTTP routes and the worker that renders in the server process.
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { createJobStore } from "./job-store";
import { defineVideoRoutes } from "./routes";
import { createVideoWorker } from "./worker";

export { videoMigrations } from "./migrations";
export { VIDEO_ERROR_CODES } from "./failures";
export { MAX_RENDER_ATTEMPTS } from "./worker";
export { VIDEO_FORMAT } from "./render";

/** Routes, plus the worker from the moment the app is ready until it closes. */
export const videosPlugin = fp(
  async function videos(app: FastifyInstance) {
    const { db, dataDir, now, allowPrivateImageAddresses = false } = app.appOptions;
    const jobs = createJobStore(db, now);
    const worker = createVideoWorker({ jobs, dataDir, log: app.log, fetch: { allowPrivateAddresses: allowPrivateImageAddresses } });
    let ready = false;
    defineVideoRoutes(app, jobs, () => ready && worker.pump());

    app.addHook("onReady", async () => {
      ready = true;
      worker.pump();
    });
    app.addHook("onClose", async () => worker.stop());
  },
  { name: "videos", dependencies: ["accounts", "auth", "route-registry"] },
);
