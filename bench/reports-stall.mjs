// API latency while a day's reports are generated: p99 of GET /api/v1/sources/:id at a steady
// rate while the server generates yesterday's reports of an account with 100k requests a day
// (10 Sources × 10k), beside the same p99 with nothing generating, in one run. The server
// generates at start-up (yesterday's catch-up), so the loaded run starts with the server and lasts
// until the reports are listed. The idle run is the same server started again on the same data
// (the reports exist: nothing to generate), measured as long: both runs cover the same first
// seconds of a server, so the only difference is the generation. The first 2 s of each run (a cold
// server) are left out. Targets: p99 <= 20 ms and <= 3x idle.
//
//   node bench/reports-stall.mjs   (env BENCH_RATE requests/s, default 200; BENCH_REQUESTS_PER_DAY, default 100000)
import * as http from "node:http";
import { openMigratedDatabase, reportTypesFor, seedUsage } from "@asset-delivery/server";
import { apiDocument, apiHeaders } from "./lib/api.mjs";
import { createServeData, startServeProcess } from "../test/support/serve-process.cjs";
import { check, summarize } from "./lib/report.cjs";

const RATE = Number(process.env.BENCH_RATE ?? 200);
const REQUESTS_PER_DAY = Number(process.env.BENCH_REQUESTS_PER_DAY ?? 100_000);
const SOURCES = 10;
const WARM_UP_MS = 2_000;
const TARGETS = { p99Ms: 20, ratio: 3 };
const DAY_SECONDS = 86_400;

/**
 * Sends GET `url` at a steady RATE per second (open loop: one request every 1000/RATE ms, whatever
 * the answers do) until `until` resolves or `durationS` has passed. Latency is counted from when a
 * request was due, so a stalled server shows in full. autocannon's fixed rates send each second's
 * requests in one burst, which measures the burst's queue, not the server.
 */
function steadyLoad(url, key, { until, durationS }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
  const latencies = [];
  let failures = 0;
  let stopped = false;
  const inFlight = new Set();
  const send = (dueAt) => {
    const done = new Promise((resolve) => {
      const request = http.get(url, { agent, headers: apiHeaders(key) }, (response) => {
        response.resume().on("end", () => {
          if (response.statusCode === 200) latencies.push([performance.now() - dueAt, dueAt - startedAt]);
          else failures++;
          resolve();
        });
      });
      request.on("error", () => (failures++, resolve()));
    });
    inFlight.add(done);
    void done.then(() => inFlight.delete(done));
  };
  const startedAt = performance.now();
  const intervalMs = 1000 / RATE;
  return new Promise((resolve, reject) => {
    let sent = 0;
    const tick = () => {
      if (stopped) return;
      const now = performance.now();
      // Every request due by now (timers fire late on a busy machine), each with its due time.
      while (startedAt + sent * intervalMs <= now) send(startedAt + sent++ * intervalMs);
      setTimeout(tick, Math.max(0, startedAt + sent * intervalMs - performance.now()));
    };
    const finish = async () => {
      stopped = true;
      await Promise.all(inFlight);
      agent.destroy();
      if (failures) return reject(new Error(`${url}: ${failures} requests failed`));
      // The first seconds measure a cold server (connections, JIT), not the generation: left out of both runs.
      const sorted = latencies.filter(([, dueAfter]) => dueAfter >= WARM_UP_MS).sort((x, y) => x[0] - y[0]);
      if (process.env.BENCH_DEBUG)
        console.log(
          sorted
            .slice(-15)
            .map(([l, t]) => `${l.toFixed(0)}ms@${(t / 1000).toFixed(2)}s`)
            .join(" "),
        );
      const at = (q) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))][0] * 10) / 10;
      resolve({ p99: at(0.99), p50: at(0.5), max: at(1), total: sorted.length, seconds: (performance.now() - startedAt) / 1000 });
    };
    tick();
    if (until) until.then(finish, reject);
    else setTimeout(finish, durationS * 1000);
  });
}

/** Lists the reports every 200 ms, as a client waiting for them does, until `enough(count)`. */
async function pollReports(url, key, enough) {
  for (;;) {
    const listed = await apiDocument(`${url}/api/v1/reports?page[size]=100`, key);
    if (enough(listed.data.length)) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const data = createServeData();
let server;
try {
  // The account's Sources, through the API; then a day of usage for them, and the account made
  // older than that day (the scheduler generates a day only for accounts that existed when it ended).
  server = await startServeProcess(data.dbPath, ["--rate-limits", "off"]);
  const ids = [];
  for (let i = 0; i < SOURCES; i++) {
    const created = await apiDocument(`${server.url}/api/v1/sources`, data.adminKey, "POST", {
      data: {
        type: "sources",
        attributes: { name: `stall ${i}`, deployment: { type: "webproxy", service_subdomains: [`stall-${process.pid}-${i}`] } },
      },
    });
    ids.push(created.data.id);
  }
  await server.stop();
  const db = openMigratedDatabase(data.dbPath);
  let seeded;
  try {
    seeded = seedUsage(db, { account: data.account, days: 1, requestsPerDay: REQUESTS_PER_DAY / SOURCES });
    db.prepare("UPDATE accounts SET created_at = created_at - ? WHERE name = ?").run(2 * DAY_SECONDS, data.account);
  } finally {
    db.close();
  }
  const expectedReports = reportTypesFor({ plan: "enterprise", disabledReports: [] }).length;
  console.log(
    `reports-stall: ${seeded.events} usage events on ${seeded.days[0]} over ${SOURCES} Sources; GET at a steady ${RATE} requests/s`,
  );

  // Loaded: from the server's start until its reports are listed.
  const startedAt = performance.now();
  server = await startServeProcess(data.dbPath, ["--rate-limits", "off"]);
  let generationS;
  const generated = pollReports(server.url, data.adminKey, (count) => count >= expectedReports).then(
    () => void (generationS = (performance.now() - startedAt) / 1000),
  );
  const during = await steadyLoad(`${server.url}/api/v1/sources/${ids[0]}`, data.adminKey, { until: generated });
  console.log(
    `  during generation (${generationS.toFixed(1)} s from start): p99 ${during.p99} ms, p50 ${during.p50} ms, max ${during.max} ms, ${during.total} requests`,
  );

  // Idle: the same server started again (nothing left to generate), the same requests as long.
  await server.stop();
  server = await startServeProcess(data.dbPath, ["--rate-limits", "off"]);
  let idleDone = false;
  const polled = pollReports(server.url, data.adminKey, () => idleDone);
  const idle = await steadyLoad(`${server.url}/api/v1/sources/${ids[0]}`, data.adminKey, { durationS: during.seconds });
  idleDone = true;
  await polled;
  console.log(`  idle: p99 ${idle.p99} ms, p50 ${idle.p50} ms, max ${idle.max} ms, ${idle.total} requests`);

  summarize("reports-stall", [
    check("p99 during generation", during.p99, TARGETS.p99Ms, { atMost: true, unit: " ms" }),
    check("p99 during/idle", Math.round((during.p99 / Math.max(1, idle.p99)) * 100) / 100, TARGETS.ratio, {
      atMost: true,
      describe: `(idle p99 ${idle.p99} ms)`,
    }),
  ]);
} finally {
  await server?.stop();
  data.remove();
}
