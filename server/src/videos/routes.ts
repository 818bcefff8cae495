// Video generation over HTTP (spec 4.4): create a job, poll it, download its result. Create and
// poll are served with and without the `/api` prefix, as the spec writes both; any key permission
// will do.
import * as fs from "node:fs/promises";
import * as path from "node:path";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { API_ROUTES, singleDocumentSchema, type ApiRoute, videoCreateRequestSchema, videoJobSchema } from "@asset-delivery/sdk";
import { baseUrlOf } from "../http/base-url";
import { singleDocument } from "../http/documents";
import { HttpError, ERROR_TITLES, notFound } from "../http/errors";
import { defineRoute } from "../http/route";
import type { JobStore } from "./job-store";
import { jobResource } from "./job-resource";

/** The route as declared, and the same route without the `/api` prefix. */
function withAlias(route: ApiRoute): ApiRoute[] {
  return [route, { ...route, path: route.path.replace(/^\/api/, "") }];
}

const jobDocumentSchema = singleDocumentSchema(videoJobSchema);

export function defineVideoRoutes(app: FastifyInstance, jobs: JobStore, onCreated: () => void): void {
  for (const route of withAlias(API_ROUTES.createVideo)) {
    defineRoute(app, {
      route,
      permission: "any",
      body: videoCreateRequestSchema,
      errors: [403],
      response: jobDocumentSchema,
      status: 200,
      summary: "Start generating a video from an image (answers with the job, status preparing)",
      handler({ request, auth, body }) {
        if (!app.accounts.findById(auth.accountId)?.videoEnabled) {
          throw new HttpError(403, ERROR_TITLES[403]!, "Image-to-video generation is not enabled for this account.");
        }
        const job = jobs.create(auth.accountId, body);
        onCreated();
        return singleDocument(request, jobResource(job, baseUrlOf(request)));
      },
    });
  }

  for (const route of withAlias(API_ROUTES.getVideo)) {
    defineRoute(app, {
      route,
      permission: "any",
      response: jobDocumentSchema,
      status: 200,
      summary: "Poll a video generation job",
      handler({ request, auth, params }) {
        const job = jobs.findForAccount(auth.accountId, params.job_id!);
        if (!job) throw notFound("Video job", params.job_id!);
        return singleDocument(request, jobResource(job, baseUrlOf(request)));
      },
    });
  }

  defineRoute(app, {
    route: API_ROUTES.getVideoResult,
    permission: "any",
    response: z.instanceof(Buffer),
    mediaType: "video/mp4",
    status: 200,
    summary: "Download the video of a ready job (MP4, H.264)",
    async handler({ reply, auth, params }) {
      const job = jobs.findForAccount(auth.accountId, params.job_id!);
      if (!job) throw notFound("Video job", params.job_id!);
      if (job.status !== "ready" || !job.videoPath) {
        throw new HttpError(404, ERROR_TITLES[404]!, `Video job "${job.id}" has no video to download: its status is ${job.status}.`);
      }
      reply.header("content-disposition", `attachment; filename="${job.id}.mp4"`);
      return fs.readFile(path.join(app.appOptions.dataDir, job.videoPath));
    },
  });
}
