// Absolute URLs the API returns (report files, video results) use the operator's publicBaseUrl
// when set, never the Host header a client chose; without it they follow the request.
import { buildApp, generateReports, importUsage } from "@asset-delivery/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server";
import { minimalDeployment } from "./fixtures";

const clock = Date.parse("2024-03-03T12:00:00Z");
let server: TestServer;
let key: string;
let jobId: string;

async function get(url: string, host: string) {
  const response = await server.app.inject({ method: "GET", url, headers: { host, authorization: `Bearer ${key}` } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

beforeAll(async () => {
  server = await startTestServer({ now: () => clock, publicBaseUrl: "https://assets-api.example.test/emulator/" });
  key = server.accountKey(["Account Admin"]);
  const created = await server.app.inject({
    method: "POST",
    url: "/api/v1/sources",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/vnd.api+json" },
    payload: { data: { type: "sources", attributes: { name: "linked", deployment: minimalDeployment("webproxy") } } },
  });
  importUsage(
    server.db,
    JSON.stringify({
      timestamp: "2024-03-02T10:00:00Z",
      source_id: created.json().data.id,
      path: "/a.jpg",
      status: 200,
      bytes: 1,
      cache_hit: false,
      response_ms: 1,
    }),
  );
  generateReports(server.db, { date: "2024-03-02", dataDir: server.app.appOptions.dataDir, now: () => clock });
  const job = await server.app.inject({
    method: "POST",
    url: "/api/v1/generations/video",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    payload: { url: "https://images.example.test/a.png", prompt: "a pan", model: "veo2", duration: 1 },
  });
  jobId = job.json().data.id;
  // A job as the worker leaves it when ready (the render itself is videos.test.ts's subject).
  server.db
    .prepare("UPDATE video_jobs SET status = 'ready', video_path = 'videos/x/video.mp4', updated_at = ? WHERE id = ?")
    .run(clock, jobId);
});
afterAll(() => server.close());

describe("publicBaseUrl", () => {
  it("builds report file URLs on it, whatever the Host header says", async () => {
    const reports = await get("/api/v1/reports?page[size]=100", "evil.example");
    const files = reports.data.flatMap((report: any) => report.attributes.files as string[]);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect(file).toMatch(/^https:\/\/assets-api\.example\.test\/emulator\/api\/v1\/reports\/\w+\/files\/1$/);
    const one = await get(`/api/v1/reports/${reports.data[0].id}`, "evil.example");
    expect(one.data.attributes.files[0]).toMatch(/^https:\/\/assets-api\.example\.test\/emulator\//);
  });

  it("builds a video's result URL on it", async () => {
    const job = await get(`/api/v1/generations/video/${jobId}`, "evil.example");
    expect(job.data.attributes.result.url).toBe(`https://assets-api.example.test/emulator/api/v1/generations/video/${jobId}/result`);
  });

  it("is refused at start-up unless it is an absolute http(s) URL without query or credentials", async () => {
    for (const bad of ["assets-api.example.test", "ftp://example.test", "https://example.test/?a=1", "https://user:pw@example.test"]) {
      await expect(buildApp({ ...server.app.appOptions, publicBaseUrl: bad }), bad).rejects.toThrow(
        /publicBaseUrl must be an absolute http/,
      );
    }
  });
});
