// Video generation: plain JSON create, and the reference polling routine in both status vocabularies.
import { afterEach, describe, expect, it } from "vitest";
import {
  createClient,
  PermissionError,
  type RequestValidationError,
  VideoJobFailedError,
  VideoJobTimeoutError,
  type VideoJob,
} from "@asset-delivery/sdk";
import { errorDocument, videoJob } from "../../support/api-documents";
import { FakeClock } from "../../support/fake-clock";
import { sendJson, startTestServer, type TestServer } from "../../support/http-test-server";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Answers GETs of job1 with the given documents in turn (the last one repeats). */
async function jobServer(documents: ReturnType<typeof videoJob>[]) {
  let call = 0;
  server = await startTestServer((req, res) => {
    if (req.method === "POST") return sendJson(res, 200, videoJob("preparing"), { "content-type": "application/json" });
    sendJson(res, 200, documents[Math.min(call++, documents.length - 1)], { "content-type": "application/json" });
  });
  return server;
}

const REQUEST = { url: "https://images.example.com/cat.jpg", prompt: "the cat waves", model: "veo3", duration: 5 } as const;

describe("videos.create", () => {
  it("posts plain JSON to /api/v1/generations/video", async () => {
    const s = await jobServer([]);
    const client = createClient({ baseUrl: s.url, apiKey: "k" });
    const job = await client.videos.create(REQUEST);
    expect(job).toEqual({ id: "job1", type: "job", attributes: { status: "preparing", created_at: 1_767_225_600 } });
    const request = s.requests[0]!;
    expect(request.path).toBe("/api/v1/generations/video");
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers.accept).toBe("application/json");
    expect(JSON.parse(request.body)).toEqual(REQUEST);
  });

  it("rejects a request without a prompt or with an unknown model", async () => {
    const s = await jobServer([]);
    const client = createClient({ baseUrl: s.url, apiKey: "k" });
    const error = (await client.videos
      // @ts-expect-error: prompt is required
      .create({ url: REQUEST.url, model: "veo2", duration: 5 })
      .catch((e: unknown) => e)) as RequestValidationError;
    expect(error.issues.map((i) => `${i.path}: ${i.rule}`)).toEqual(["prompt: is required"]);
    // @ts-expect-error: not a model
    await expect(client.videos.create({ ...REQUEST, model: "sora" })).rejects.toThrow("model: must be one of klingai, veo2, veo3");
    expect(s.requests).toHaveLength(0);
  });

  it("raises PermissionError when image-to-video is not enabled", async () => {
    server = await startTestServer((_, res) =>
      sendJson(res, 403, errorDocument(403, "Forbidden", "image-to-video is not enabled for this source")),
    );
    const client = createClient({ baseUrl: server.url, apiKey: "k" });
    await expect(client.videos.create(REQUEST)).rejects.toBeInstanceOf(PermissionError);
  });
});

describe("videos.waitForResult", () => {
  const ready = videoJob("ready", { updated_at: 1_767_225_700, result: { url: "https://cdn.example.com/v.mp4" } });

  it("returns result.url once the job is ready, polling every 5 s by default", async () => {
    const s = await jobServer([videoJob("preparing"), videoJob("preparing"), ready]);
    const clock = new FakeClock();
    const client = createClient({ baseUrl: s.url, apiKey: "k", clock, pacing: false });
    expect(await client.videos.waitForResult("job1")).toBe("https://cdn.example.com/v.mp4");
    expect(s.requests.map((r) => r.path)).toEqual(Array(3).fill("/api/v1/generations/video/job1"));
    expect(clock.sleeps).toEqual([5_000, 5_000]);
  });

  it("understands the other vocabulary: pending, processing, completed", async () => {
    const completed = {
      data: { ...ready.data, attributes: { ...ready.data.attributes, status: "completed" as VideoJob["attributes"]["status"] } },
    };
    const s = await jobServer([videoJob("pending"), videoJob("processing"), completed]);
    const client = createClient({ baseUrl: s.url, apiKey: "k", clock: new FakeClock(), pacing: false });
    expect(await client.videos.waitForResult("job1")).toBe("https://cdn.example.com/v.mp4");
  });

  it.each(["errored", "failed"] as const)("raises VideoJobFailedError with the job's code and message when %s", async (status) => {
    const s = await jobServer([
      videoJob("preparing"),
      videoJob(status, { updated_at: 1, error: { code: 4201, message: "source image too small" } }),
    ]);
    const client = createClient({ baseUrl: s.url, apiKey: "k", clock: new FakeClock(), pacing: false });
    const error = (await client.videos.waitForResult("job1").catch((e: unknown) => e)) as VideoJobFailedError;
    expect(error).toBeInstanceOf(VideoJobFailedError);
    expect(error.code).toBe(4201);
    expect(error.detail).toBe("source image too small");
    expect(error.message).toBe("video job job1 failed (error 4201): source image too small");
  });

  it("raises VideoJobTimeoutError after maxAttempts, saying how long it waited", async () => {
    const s = await jobServer([videoJob("processing")]);
    const clock = new FakeClock();
    const client = createClient({ baseUrl: s.url, apiKey: "k", clock, pacing: false });
    const error = (await client.videos.waitForResult("job1").catch((e: unknown) => e)) as VideoJobTimeoutError;
    expect(error).toBeInstanceOf(VideoJobTimeoutError);
    expect(s.requests).toHaveLength(60);
    expect(error.waitedMs).toBe(59 * 5_000);
    expect(error.message).toBe('video job job1 not finished after 60 polls over 295 s (last status "processing")');
  });

  it("honours intervalMs and maxAttempts", async () => {
    const s = await jobServer([videoJob("preparing")]);
    const clock = new FakeClock();
    const client = createClient({ baseUrl: s.url, apiKey: "k", clock, pacing: false });
    await expect(client.videos.waitForResult("job1", { intervalMs: 100, maxAttempts: 3 })).rejects.toBeInstanceOf(VideoJobTimeoutError);
    expect(clock.sleeps).toEqual([100, 100]);
    await expect(client.videos.waitForResult("job1", { maxAttempts: 0 })).rejects.toThrow(
      "waitForResult options: maxAttempts: must be >= 1",
    );
  });

  it("names result.url when a ready job lacks it", async () => {
    const s = await jobServer([videoJob("ready")]);
    const client = createClient({ baseUrl: s.url, apiKey: "k" });
    await expect(client.videos.waitForResult("job1")).rejects.toThrow('data.attributes.result.url: is required when status is "ready"');
  });
});
