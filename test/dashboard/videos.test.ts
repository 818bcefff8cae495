// The dashboard's Video jobs view in Chromium: jobs made through the SDK, rendered by the server's
// worker from an image served on loopback, shown with their status, and the video once ready.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { createClient } from "@asset-delivery/sdk";
import { afterAll, beforeAll, expect, it } from "vitest";
import { launchBrowser, type TestBrowser } from "../support/browser.cjs";
import { addUser, signIn } from "../support/dashboard";
import { startTestServer, type TestServer } from "../support/server";

let server: TestServer;
let browser: TestBrowser;
let images: http.Server;
let imagesUrl: string;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "dashboard-videos-"));

beforeAll(async () => {
  const png = path.join(tmp, "photo.png");
  execFileSync("ffmpeg", ["-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=size=320x240", "-frames:v", "1", "-y", png]);
  const bytes = fs.readFileSync(png);
  images = http.createServer((request, response) => {
    if (request.url === "/photo.png") response.writeHead(200, { "content-type": "image/png" }).end(bytes);
    else response.writeHead(200, { "content-type": "text/html" }).end("<p>not an image</p>");
  });
  await new Promise<void>((resolve) => images.listen(0, "127.0.0.1", resolve));
  imagesUrl = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;
  server = await startTestServer({ allowPrivateImageAddresses: true });
  browser = await launchBrowser();
  await addUser(server.db, "viewer@example.com", ["Purge"]); // video takes a key of any permission
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  images?.closeAllConnections();
  await new Promise<void>((resolve) => (images ? images.close(() => resolve()) : resolve()));
  fs.rmSync(tmp, { recursive: true, force: true });
});

it("lists the account's video jobs with their status and plays the video of a ready one", async () => {
  const client = createClient({ baseUrl: server.url, apiKey: server.adminKey, retry: false });
  const good = await client.videos.create({ url: `${imagesUrl}/photo.png`, prompt: "a slow pan <b>left</b>", model: "veo2", duration: 1 });
  const bad = await client.videos.create({ url: `${imagesUrl}/page.html`, prompt: "not an image", model: "klingai", duration: 1 });
  await expect.poll(async () => (await client.videos.get(good.id)).attributes.status, { timeout: 60_000, interval: 500 }).toBe("ready");
  await expect.poll(async () => (await client.videos.get(bad.id)).attributes.status, { timeout: 60_000, interval: 500 }).toBe("errored");

  const page = await browser.context.newPage();
  await signIn(page, server.url, "viewer@example.com");
  await page.goto(`${server.url}/dashboard/videos`);
  const row = (id: string) => page.getByRole("row").filter({ hasText: id });
  expect(await row(good.id).textContent()).toMatch(/ready.*veo2.*a slow pan <b>left<\/b>/s);
  expect(await row(bad.id).textContent()).toMatch(/errored/);

  await row(bad.id).getByRole("link").click();
  expect(await page.getByRole("row", { name: /Error/ }).textContent()).toMatch(/\d+: .+/);
  expect(await page.locator("video").count()).toBe(0);

  await page.goto(`${server.url}/dashboard/videos/${good.id}`);
  const src = await page.locator("video").getAttribute("src");
  expect(src).toBe(`/dashboard/videos/${good.id}/video`);
  const video = await page.evaluate(async (url) => {
    const response = await fetch(url);
    return { status: response.status, type: response.headers.get("content-type"), bytes: (await response.arrayBuffer()).byteLength };
  }, src!);
  expect(video).toMatchObject({ status: 200, type: "video/mp4" });
  expect(video.bytes).toBeGreaterThan(1000);
  await page.close();
});
