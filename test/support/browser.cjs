// Headless Chromium for the dashboard's browser tests and screenshots: Debian's `chromium` package
// (installed by tools/install-system-packages.sh) driven by playwright-core, which downloads
// nothing. Each browser gets a fresh profile in a temporary folder, removed on close. CommonJS, so
// that tools/dashboard-screenshots.mjs shares it with the tests (types: browser.d.cts).
"use strict";
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { chromium } = require("playwright-core");

const CHROMIUM_PATH = process.env.ASSET_DELIVERY_CHROMIUM || "/usr/bin/chromium";

const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

async function launchBrowser(options = {}) {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(`no Chromium at ${CHROMIUM_PATH}: run tools/install-system-packages.sh (Debian's chromium package)`);
  }
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), "asset-delivery-chromium-"));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ARGS,
    viewport: options.viewport || { width: 1280, height: 900 },
    acceptDownloads: true,
  });
  return {
    context,
    async close() {
      await context.close();
      fs.rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

module.exports = { CHROMIUM_PATH, launchBrowser };
