// Video generation (spec 2.5, 4.4): jobs created over HTTP, rendered by the server's worker from an
// image served on loopback by this test, downloaded and checked with ffprobe; every failure path.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { createAccount, createKey, openDatabase } from "@asset-delivery/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiRequest, startTestServer, type TestServer } from "../support/server";

let server: TestServer;
let images: Server;
let imagesUrl: string;
let key: string;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "videos-test-"));

function testImage(name: string, extension: string): Buffer {
  const file = path.join(tmp, `${name}.${extension}`);
  execFileSync("ffmpeg", ["-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=size=800x600", "-frames:v", "1", "-y", file]);
  return fs.readFileSync(file);
}

/** A PNG whose header declares this size, followed by junk: refused unless the header is ignored. */
function pngDeclaring(width: number, height: number): Buffer {
  const size = Buffer.alloc(8);
  size.writeUInt32BE(width, 0);
  size.writeUInt32BE(height, 4);
  return Buffer.concat([Buffer.from("89504e470d0a1a0a0000000d49484452", "hex"), size, Buffer.alloc(400, 1)]);
}

// What the image server answers, by path; `/slow/...` waits for `releaseSlow` first.
let releaseSlow: () => void = () => undefined;
let slowGate = Promise.resolve();
/** Resolves each waiter once this many `/slow/` requests are being held. */
let slowHeld = 0;
let slowWaiters: { count: number; resolve(): void }[] = [];
function holdSlowRequests(): void {
  slowHeld = 0;
  slowGate = new Promise((resolve) => (releaseSlow = resolve));
}
function slowRequestsHeld(count: number): Promise<void> {
  return count <= slowHeld ? Promise.resolve() : new Promise((resolve) => slowWaiters.push({ count, resolve }));
}
// The servers' clock: job times are read from it, exactly.
const clock = Date.UTC(2026, 0, 1, 9);
const now = () => clock;

beforeAll(async () => {
  const png = testImage("photo", "png");
  const jpeg = testImage("photo", "jpg");
  const serveImage = async (request: IncomingMessage, response: ServerResponse) => {
    const url = request.url ?? "";
    if (url.startsWith("/slow/")) {
      slowHeld += 1;
      slowWaiters = slowWaiters.filter((waiter) => (waiter.count <= slowHeld ? (waiter.resolve(), false) : true));
      await slowGate;
    }
    if (url.endsWith("/photo.png")) response.writeHead(200, { "content-type": "image/png" }).end(png);
    else if (url === "/photo.jpg") response.writeHead(200, { "content-type": "image/jpeg" }).end(jpeg);
    else if (url === "/page.html") response.writeHead(200, { "content-type": "text/html" }).end("<html><body>not an image</body></html>");
    else if (url === "/fake.png") response.writeHead(200, { "content-type": "image/png" }).end("GIF? no: plain text pretending");
    // A readable header (signature and IHDR), then bytes no decoder makes sense of.
    else if (url === "/broken.png")
      response.writeHead(200, { "content-type": "image/png" }).end(Buffer.concat([png.subarray(0, 33), Buffer.alloc(2000, 7)]));
    else if (url === "/8000x8000.png") response.writeHead(200, { "content-type": "image/png" }).end(pngDeclaring(8000, 8000));
    else if (url === "/huge.png")
      response.writeHead(200, { "content-type": "image/png", "content-length": String(25 * 1024 * 1024) }).end(png);
    else if (url === "/endless.png") {
      // No Content-Length: the size is found out while downloading.
      response.writeHead(200, { "content-type": "image/png" });
      response.write(png.subarray(0, 8));
      const chunk = Buffer.alloc(1024 * 1024, 1);
      let sent = 0;
      const more = () => {
        while (sent < 22 && response.write(chunk)) sent++;
        if (sent < 22) response.once("drain", more);
        else response.end();
      };
      response.on("error", () => undefined);
      more();
    } else response.writeHead(404, { "content-type": "text/plain" }).end("no such image");
  };
  // A failure while answering ends that response, not the test run (as an unhandled rejection).
  images = createServer((request, response) => {
    serveImage(request, response).catch((error: Error) => response.destroy(error));
  });
  await new Promise<void>((resolve) => images.listen(0, "127.0.0.1", resolve));
  imagesUrl = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;
  // The images are served on loopback: allowed only by the operator's development option.
  server = await startTestServer({ allowPrivateImageAddresses: true, now });
  key = server.accountKey(["Purge"]); // video generation accepts a key with any permission
});
afterAll(async () => {
  await server.close();
  images.closeAllConnections();
  await new Promise((resolve) => images.close(resolve));
  fs.rmSync(tmp, { recursive: true, force: true });
});

function create(body: unknown, options: { key?: string; prefix?: string; server?: TestServer } = {}) {
  const target = options.server ?? server;
  return apiRequest(`${target.url}${options.prefix ?? "/v1"}/generations/video`, {
    method: "POST",
    key: options.key ?? key,
    body,
    headers: { "content-type": "application/json" },
  });
}

const request = (url: string, extra: Record<string, unknown> = {}) => ({
  url,
  prompt: "a slow pan over the test card",
  model: "klingai",
  duration: 2,
  ...extra,
});

async function waitForJob(id: string, target = server, jobKey = key): Promise<any> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const response = await apiRequest(`${target.url}/api/v1/generations/video/${id}`, { key: jobKey });
    expect(response.status).toBe(200);
    if (response.body.data.attributes.status !== "preparing" || Date.now() > deadline) return response.body.data;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function probe(file: string): { duration: number; codec: string; pixFmt: string; width: number; height: number } {
  const json = JSON.parse(
    execFileSync("ffprobe", [
      "-v",
      "error",
      "-show_entries",
      "format=duration:stream=codec_name,pix_fmt,width,height",
      "-of",
      "json",
      file,
    ]).toString(),
  );
  const stream = json.streams[0];
  return {
    duration: Number(json.format.duration),
    codec: stream.codec_name,
    pixFmt: stream.pix_fmt,
    width: stream.width,
    height: stream.height,
  };
}

describe("a video job", () => {
  it.each([
    ["PNG", "/photo.png", "/v1", 2, "klingai"],
    ["JPEG", "/photo.jpg", "/api/v1", 3, "veo2"],
  ])("from a %s renders a playable H.264 MP4 of the requested duration", async (_format, imagePath, prefix, duration, model) => {
    const created = await create(request(`${imagesUrl}${imagePath}`, { duration, model }), { prefix });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ data: { type: "job", attributes: { status: "preparing" } }, jsonapi: { version: "1.0" } });
    expect(created.body.data.attributes.created_at).toBe(Math.floor(clock / 1000));
    expect(created.body.data.attributes).not.toHaveProperty("updated_at");

    const job = await waitForJob(created.body.data.id);
    expect(job.attributes.status).toBe("ready");
    expect(job.attributes.updated_at).toBeGreaterThanOrEqual(job.attributes.created_at);
    expect(job.attributes.result.url).toBe(`${server.url}/api/v1/generations/video/${job.id}/result`);

    const download = await fetch(job.attributes.result.url, { headers: { authorization: `Bearer ${key}` } });
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("video/mp4");
    const bytes = Buffer.from(await download.arrayBuffer());
    const file = path.join(tmp, `${job.id}.mp4`);
    fs.writeFileSync(file, bytes);
    const video = probe(file);
    expect(video).toMatchObject({ codec: "h264", pixFmt: "yuv420p", width: 640, height: 360 });
    expect(video.duration).toBeCloseTo(duration, 1);
    // Private to the server's user, whatever the umask: the job's folder 0700, the video 0600.
    const jobDir = path.join(server.app.appOptions.dataDir, "videos", job.id);
    expect(fs.statSync(jobDir).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(jobDir, "video.mp4")).mode & 0o777).toBe(0o600);
    // +faststart: the index (moov) precedes the media data (mdat).
    expect(bytes.indexOf("moov")).toBeLessThan(bytes.indexOf("mdat"));
    // The same job from the other prefix.
    const other = await apiRequest(`${server.url}/v1/generations/video/${job.id}`, { key });
    expect(other.body.data).toEqual(job);
  });

  it.each([
    // A closed port and a missing page give the same message: no port scanning through job errors.
    [
      "an unreachable URL",
      "http://127.0.0.1:1/photo.png",
      4001,
      /^the image could not be fetched: the URL must be publicly reachable and answer with a 2xx status$/,
    ],
    [
      "a URL answering 404",
      "/nowhere.png",
      4001,
      /^the image could not be fetched: the URL must be publicly reachable and answer with a 2xx status$/,
    ],
    ["an image over 20 MB by its Content-Length", "/huge.png", 4002, /larger than 20\.0 MB/],
    ["an image over 20 MB found while downloading", "/endless.png", 4002, /larger than 20\.0 MB/],
    ["an HTML page", "/page.html", 4003, /did not return an image/],
    ["bytes that are no image despite their Content-Type", "/fake.png", 4003, /did not return an image/],
    ["an image the renderer cannot decode (after one retry)", "/broken.png", 5001, /could not be rendered/],
    // Refused from the header, before ffmpeg runs: one attempt (a render of the junk would fail twice).
    [
      "an image of 8000×8000 pixels",
      "/8000x8000.png",
      4005,
      /^the image is 8000×8000 pixels; at most 10000 pixels a side and 25 megapixels are accepted$/,
    ],
  ])("errors for %s with a code and a clear message", async (_case, url, code, message) => {
    const created = await create(request(url.startsWith("http") ? url : `${imagesUrl}${url}`));
    expect(created.status).toBe(200);
    const job = await waitForJob(created.body.data.id);
    expect(job.attributes).toMatchObject({ status: "errored", error: { code } });
    expect(job.attributes.error.message).toMatch(message);
    expect(job.attributes.updated_at).toBeGreaterThanOrEqual(job.attributes.created_at);
    expect(job.attributes).not.toHaveProperty("result");
    // Fetch failures are final; a failed render is tried twice.
    expect(server.db.prepare("SELECT attempts FROM video_jobs WHERE id = ?").pluck().get(job.id)).toBe(code === 5001 ? 2 : 1);
    expect(
      (await fetch(`${server.url}/api/v1/generations/video/${job.id}/result`, { headers: { authorization: `Bearer ${key}` } })).status,
    ).toBe(404);
    // Nothing left on disk: the downloaded image is deleted whatever the outcome.
    expect(fs.existsSync(path.join(server.app.appOptions.dataDir, "videos", job.id))).toBe(false);
  });
});

describe("fairness across accounts", () => {
  it("renders another account's job while one account's jobs stall, and keeps no source image", async () => {
    const stalled = server.accountKey(["Analytics"], "stalling-account");
    const other = server.accountKey(["Analytics"], "patient-account");
    holdSlowRequests();
    try {
      const held = [];
      for (let i = 0; i < 4; i++)
        held.push((await create(request(`${imagesUrl}/slow/photo.png`, { duration: 1 }), { key: stalled })).body.data.id as string);
      const quick = (await create(request(`${imagesUrl}/photo.png`, { duration: 1 }), { key: other })).body.data.id as string;
      // Two workers: the stalling account holds one at most, the other account's job takes the second.
      expect((await waitForJob(quick, server, other)).attributes.status).toBe("ready");
      const states = held.map((id) => server.db.prepare("SELECT status, attempts FROM video_jobs WHERE id = ?").get(id));
      expect(states).toEqual([{ status: "preparing", attempts: 1 }, ...Array(3).fill({ status: "preparing", attempts: 0 })]);
      releaseSlow();
      for (const id of held) expect((await waitForJob(id, server, stalled)).attributes.status).toBe("ready");
      const kept = fs.readdirSync(path.join(server.app.appOptions.dataDir, "videos", quick));
      expect(kept).toEqual(["video.mp4"]);
    } finally {
      releaseSlow();
    }
  });
});

describe("image addresses", () => {
  it("by default, refuses an image on loopback without connecting, with the neutral message", async () => {
    const guarded = await startTestServer();
    let served = 0;
    const count = () => served++;
    images.on("request", count);
    try {
      const guardedKey = guarded.accountKey(["Purge"]);
      for (const url of [
        `${imagesUrl}/photo.png`,
        `http://localhost:${new URL(imagesUrl).port}/photo.png`,
        "http://169.254.169.254/latest/meta-data/",
      ]) {
        const created = await create(request(url), { key: guardedKey, server: guarded });
        const job = await waitForJob(created.body.data.id, guarded, guardedKey);
        expect(job.attributes).toMatchObject({
          status: "errored",
          error: { code: 4001, message: "the image could not be fetched: the URL must be publicly reachable and answer with a 2xx status" },
        });
      }
      expect(served).toBe(0);
    } finally {
      images.off("request", count);
      await guarded.close();
    }
  });
});

describe("requests refused", () => {
  it("403 when image-to-video is not enabled for the account", async () => {
    createAccount(server.db, { name: "no-video", plan: "enterprise", video: false });
    const noVideo = createKey(server.db, { account: "no-video", permissions: ["Account Admin"] }).key;
    const response = await create(request(`${imagesUrl}/photo.png`), { key: noVideo });
    expect(response.status).toBe(403);
    expect(response.body.errors[0]).toMatchObject({ status: "403", title: "Forbidden" });
    expect(response.body.errors[0].detail).toMatch(/not enabled/);
  });

  it.each([
    [{ url: "not a url" }, "url", /url: must be an absolute http:\/\/ or https:\/\/ URL/],
    [{ url: "ftp://example.com/a.png" }, "url", /url: must be an absolute http/],
    [{ url: undefined }, "url", /url: is required/],
    [{ prompt: undefined }, "prompt", /prompt: is required/],
    [{ prompt: "   " }, "prompt", /prompt: must not be blank/],
    [{ prompt: "x".repeat(2501) }, "prompt", /prompt: must be at most 2500 characters/],
    [{ model: "sora" }, "model", /model: must be one of klingai, veo2, veo3/],
    [{ model: undefined }, "model", /model: is required/],
    [{ duration: 0 }, "duration", /duration: must be from 1 to 10 seconds/],
    [{ duration: 11 }, "duration", /duration: must be from 1 to 10 seconds/],
    [{ duration: 2.5 }, "duration", /duration: must be an integer number of seconds/],
    [{ duration: "5" }, "duration", /duration: must be an integer number of seconds/],
    [{ colour: "red" }, "colour", /colour: is not a field of this object/],
  ])("400 for %j, naming the field and the rule", async (fields, field, detail) => {
    const response = await create(request(`${imagesUrl}/photo.png`, fields));
    expect(response.status).toBe(400);
    expect(response.body.errors[0].detail).toMatch(detail);
    expect(response.body.errors[0].source).toEqual({ pointer: `/${field}` });
  });

  it("400 for a body that is not a JSON object", async () => {
    expect((await create([1, 2])).status).toBe(400);
    expect((await create("{oops")).status).toBe(400);
  });

  it("404 for a job of another account, and for an unknown job", async () => {
    const created = await create(request(`${imagesUrl}/photo.png`, { duration: 1 }));
    const job = await waitForJob(created.body.data.id);
    const stranger = server.accountKey(["Account Admin"], "stranger");
    for (const url of [
      `/api/v1/generations/video/${job.id}`,
      `/v1/generations/video/${job.id}`,
      `/api/v1/generations/video/${job.id}/result`,
    ]) {
      const response = await apiRequest(`${server.url}${url}`, { key: stranger });
      expect(response.status).toBe(404);
      expect(response.body.errors[0].title).toBe("NotFound");
    }
    expect((await apiRequest(`${server.url}/api/v1/generations/video/nope`, { key })).status).toBe(404);
  });

  it("401 without a valid key", async () => {
    expect((await create(request(`${imagesUrl}/photo.png`), { key: "" })).status).toBe(401);
  });
});

describe("restarts", () => {
  it("resume a job left preparing, and give up one whose render was interrupted twice", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "videos-restart-"));
    const dbPath = path.join(dir, "db.sqlite");
    let first = await startTestServer({ dbPath, allowPrivateImageAddresses: true, now });
    // Two accounts, so both jobs are in flight at once (one account has one at a time).
    const restartKey = first.accountKey(["Analytics"]);
    const otherKey = first.accountKey(["Analytics"], "restart-other");
    holdSlowRequests();
    const resumed = (await create(request(`${imagesUrl}/slow/photo.png`, { duration: 1 }), { key: restartKey, server: first })).body.data
      .id;
    const abandoned = (await create(request(`${imagesUrl}/slow/photo.png`, { duration: 1 }), { key: otherKey, server: first })).body.data
      .id;
    await slowRequestsHeld(2); // both downloads are under way
    await first.close({ keepData: true }); // a stop mid-job: both stay preparing, one attempt each
    // The second job has been interrupted once before already.
    const db = openDatabase(dbPath);
    expect(db.prepare("SELECT id, status, attempts FROM video_jobs ORDER BY created_at, rowid").all()).toEqual([
      { id: resumed, status: "preparing", attempts: 1 },
      { id: abandoned, status: "preparing", attempts: 1 },
    ]);
    db.prepare("UPDATE video_jobs SET attempts = 2 WHERE id = ?").run(abandoned);
    db.close();

    releaseSlow();
    first = await startTestServer({ dbPath, allowPrivateImageAddresses: true, now });
    try {
      expect((await waitForJob(resumed, first, restartKey)).attributes.status).toBe("ready");
      const given = await waitForJob(abandoned, first, otherKey);
      expect(given.attributes).toMatchObject({ status: "errored", error: { code: 5001 } });
      expect(given.attributes.error.message).toMatch(/interrupted 2 times/);
    } finally {
      await first.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
