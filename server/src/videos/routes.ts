// Video generation over HTTP (spec 4.4): create a job, poll it, download its result. Each path is
// served with and without the `/api` prefix, as the spec writes both; any key permission will do.
import * as fs from "node:fs/promises";
import * as path from "node:path";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { singleDocumentSchema, videoCreateRequestSchema, videoJobSchema } from "@asset-delivery/sdk";
import { baseUrlOf } from "../http/base-url";
import { singleDocument } from "../http/documents";
import { ApiError, ERROR_TITLES, notFound } from "../http/errors";
import { defineRoute } from "../http/route";
import type { JobStore } from "./job-store";
import { jobResource, resultPath } from "./job-resource";

const PREFIXES = ["/api/v1", "/v1"] as const;
const jobDocumentSchema = singleDocumentSchema(videoJobSchema);

export function defineVideoRoutes(app: FastifyInstance, jobs: JobStore, onCreated: () => void): void {
  for (const prefix of PREFIXES) {
    defineRoute(app, {
      method: "POST",
      url: `${prefix}/generations/video`,
      permission: "any",
      body: videoCreateRequestSchema,
      errors: [403],
      response: jobDocumentSchema,
      status: 200,
      summary: "Start generating a video from an image (answers with the job, status preparing)",
      handler({ request, auth, body }) {
        if (!app.accounts.findById(auth.accountId)?.videoEnabled) {
          throw new ApiError(403, ERROR_TITLES[403]!, "Image-to-video generation is not enabled for this account.");
        }
        const job = jobs.create(auth.accountId, body);
        onCreated();
        return singleDocument(request, jobResource(job, baseUrlOf(request)));
      },
    });

    defineRoute(app, {
      method: "GET",
      url: `${prefix}/generations/video/:job_id`,
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
    method: "GET",
    url: resultPath(":job_id"),
    permission: "any",
    response: z.instanceof(Buffer),
    mediaType: "video/mp4",
    status: 200,
    summary: "Download the video of a ready job (MP4, H.264)",
    async handler({ reply, auth, params }) {
      const job = jobs.findForAccount(auth.accountId, params.job_id!);
      if (!job) throw notFound("Video job", params.job_id!);
      if (job.status !== "ready" || !job.videoPath) {
        throw new ApiError(404, ERROR_TITLES[404]!, `Video job "${job.id}" has no video to download: its status is ${job.status}.`);
      }
      reply.header("content-disposition", `attachment; filename="${job.id}.mp4"`);
      return fs.readFile(path.join(app.appOptions.dataDir, job.videoPath));
    },
  });
}
