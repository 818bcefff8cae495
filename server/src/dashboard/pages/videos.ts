// The Video jobs view: the account's newest jobs with their status, and a job's page with its
// video once ready (served behind the session; video generation takes a key of any permission,
// so any signed-in user sees it).
import * as fs from "node:fs/promises";
import * as path from "node:path";
import type { FastifyInstance } from "fastify";
import { createJobStore, type StoredJob } from "../../videos/job-store";
import { definePage, PageError } from "../page";
import { renderPage, VIEWS } from "../render";

/** Jobs listed at most: the newest. */
const LISTED_JOBS = 100;

function jobView(job: StoredJob) {
  return {
    id: job.id,
    status: job.status,
    model: job.model,
    duration: job.duration,
    prompt: job.prompt,
    url: job.url,
    createdAt: Math.floor(job.createdAt / 1000),
    updatedAt: job.updatedAt === null ? null : Math.floor(job.updatedAt / 1000),
    error: job.error,
    video: job.status === "ready" && job.videoPath !== null ? `/dashboard/videos/${job.id}/video` : undefined,
  };
}

export function defineVideoPages(app: FastifyInstance): void {
  const access = VIEWS.videos.access;
  const { db, dataDir, now } = app.appOptions;
  const jobs = createJobStore(db, now);

  definePage(app, {
    method: "GET",
    url: "/videos",
    access,
    handler({ reply, user, account }) {
      return renderPage(
        reply,
        "videos",
        { title: "Video jobs", user, active: "videos" },
        {
          jobs: jobs.latestOfAccount(account.id, LISTED_JOBS).map(jobView),
          limit: LISTED_JOBS,
        },
      );
    },
  });

  definePage(app, {
    method: "GET",
    url: "/videos/:id",
    access,
    handler({ request, reply, user, account }) {
      const job = jobs.findForAccount(account.id, (request.params as { id: string }).id);
      if (!job) throw new PageError(404, "No video job of this account has that id.");
      return renderPage(reply, "video", { title: `Video job ${job.id}`, user, active: "videos" }, { job: jobView(job) });
    },
  });

  definePage(app, {
    method: "GET",
    url: "/videos/:id/video",
    access,
    async handler({ request, reply, account }) {
      const job = jobs.findForAccount(account.id, (request.params as { id: string }).id);
      if (!job || job.status !== "ready" || job.videoPath === null) throw new PageError(404, "This video job has no video (yet).");
      reply.header("cache-control", "private, max-age=300");
      return reply.type("video/mp4").send(await fs.readFile(path.join(dataDir, job.videoPath)));
    },
  });
}
