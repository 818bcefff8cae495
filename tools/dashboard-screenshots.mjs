// Takes the screenshots of docs/dashboard.md (docs/images/dashboard-*.png): a real server on a
// temporary database with an account, users, keys, Sources, seeded usage and its reports, and a
// video job rendered from a loopback image, photographed by headless Chromium (Debian's chromium
// through playwright-core). Run after `npm run build`: bash tools/with-node.sh node tools/dashboard-screenshots.mjs
// (fonts-liberation gives Chromium's default fonts; without it text falls back to what fontconfig has).
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as http from "node:http";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import sdk from "@asset-delivery/sdk";
import server from "@asset-delivery/server";
import { launchBrowser } from "../test/support/browser.cjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const out = path.join(root, "docs", "images");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dashboard-screenshots-"));
const PASSWORD = "a demo password, not a secret";

// An image for the video job, served on loopback.
const png = path.join(dir, "photo.png");
execFileSync("ffmpeg", ["-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=size=640x360", "-frames:v", "1", "-y", png]);
const images = http.createServer((_request, response) =>
  response.writeHead(200, { "content-type": "image/png" }).end(fs.readFileSync(png)),
);
await new Promise((resolve) => images.listen(0, "127.0.0.1", resolve));

const running = await server.startServer({
  dbPath: path.join(dir, "asset-delivery.db"),
  port: 0,
  rateLimits: "off",
  allowPrivateImageAddresses: true,
  deployDelayMs: 15_000,
});
const browser = await launchBrowser({ viewport: { width: 1280, height: 800 } });
try {
  const { db, url } = running;
  server.createAccount(db, { name: "acme", video: true });
  await server.createUser(db, { account: "acme", email: "ada@acme.example", permissions: ["Account Admin"], password: PASSWORD });
  const admin = server.createKey(db, {
    account: "acme",
    permissions: ["Account Admin"],
    userName: "ada@acme.example",
    name: "platform stack (prod)",
  });
  server.createKey(db, { account: "acme", permissions: ["Analytics"], userName: "ada@acme.example", name: "finance export" });
  const client = sdk.createClient({ baseUrl: url, apiKey: admin.key });
  const d = (type, label, extra = {}) => ({ type, service_subdomains: [label], ...extra });
  const made = [
    await client.sources.create({
      name: "product-images",
      deployment: d("s3", "acme-products", { s3_bucket: "acme-products", s3_access_key: "AKIAEXAMPLE", s3_secret_key: "example-secret" }),
    }),
    await client.sources.create({
      name: "marketing-site",
      deployment: d("webfolder", "acme-www", {
        webfolder_base_url: "https://www.acme.example/",
        username: "cdn",
        password: "example-password",
      }),
    }),
    await client.sources.create({
      name: "user-uploads",
      deployment: d("gcs", "acme-uploads", { gcs_bucket: "acme-uploads", gcs_access_key: "GOOGEXAMPLE", gcs_secret_key: "example-secret" }),
    }),
    await client.sources.create({ name: "legacy-proxy", deployment: d("webproxy", "acme-legacy") }),
  ];
  const seeded = server.seedUsage(db, { account: "acme", days: 45, requestsPerDay: 300 });
  for (const date of seeded.days) server.generateReports(db, { date, account: "acme", dataDir: dir });
  const job = await client.videos.create({
    url: `http://127.0.0.1:${images.address().port}/photo.png`,
    prompt: "a slow pan across the test card",
    model: "veo2",
    duration: 2,
  });
  await client.videos.waitForResult(job.id);
  await client.sources.update(made[3].id, { deployment: d("webproxy", "acme-legacy", { annotation: "switch to the new origin" }) });

  const page = await browser.context.newPage();
  const shot = async (name) => {
    await page.screenshot({ path: path.join(out, `dashboard-${name}.png`), fullPage: true });
    process.stdout.write(`docs/images/dashboard-${name}.png\n`);
  };
  await page.goto(`${url}/dashboard/login`);
  await page.getByLabel("Email").fill("ada@acme.example");
  await shot("sign-in");
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.goto(`${url}/dashboard/sources`);
  await shot("sources");
  await page.goto(`${url}/dashboard/sources/${made[1].id}`);
  await shot("source");
  await page.goto(`${url}/dashboard/keys`);
  await page.getByLabel("Name", { exact: true }).fill("purge job");
  await page.getByLabel("Purge", { exact: true }).check();
  await page.getByRole("button", { name: "Create key" }).click();
  await shot("keys");
  await page.goto(`${url}/dashboard/reports`);
  await shot("reports");
  await page.goto(`${url}/dashboard/videos`);
  await shot("videos");
  await page.goto(`${url}/dashboard/videos/${job.id}`);
  await page
    .locator("video")
    .evaluate((video) => new Promise((resolve) => (video.readyState >= 2 ? resolve() : video.addEventListener("loadeddata", resolve))));
  await shot("video");
} finally {
  await browser.close();
  await running.close();
  images.closeAllConnections();
  images.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
