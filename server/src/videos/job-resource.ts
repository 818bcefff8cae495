// A stored job as the API shows it (spec 2.5): times in Unix seconds, `result` only when ready,
// `error` only when errored.
import { API_ROUTES, routePath, type VideoJob } from "@asset-delivery/sdk";
import type { StoredJob } from "./job-store";

function resultPath(jobId: string): string {
  return routePath(API_ROUTES.getVideoResult, { job_id: jobId });
}

export function jobResource(job: StoredJob, baseUrl: string): VideoJob {
  const seconds = (ms: number) => Math.floor(ms / 1000);
  return {
    id: job.id,
    type: "job",
    attributes: {
      status: job.status,
      created_at: seconds(job.createdAt),
      ...(job.status !== "preparing" && job.updatedAt !== null && { updated_at: seconds(job.updatedAt) }),
      ...(job.status === "ready" && { result: { url: `${baseUrl}${resultPath(job.id)}` } }),
      ...(job.status === "errored" && job.error && { error: job.error }),
    },
  };
}
