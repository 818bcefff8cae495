// API latency while a day's reports are generated: p99 of GET /api/v1/sources/:id at a steady
// rate while the server generates yesterday's reports of an account with 100k requests a day
// (10 Sources × 10k), beside the same p99 with nothing generating, in one run. The server
// generates at start-up (yesterday's catch-up), so the loaded run starts with the server and lasts
// until the reports are listed. The idle run is the same server started again on the same data
// (the reports exist: nothing to generate), measured as long: both runs cover the same first
// seconds of a server, so the only difference is the generation. The first 2 s of each run (a cold
// server) are left out. Targets: p99 <= 20 ms and <= 3x idle.
//
// A day's generation takes a few seconds: each round restores the database as seeded (its
// reports not generated) and runs both; the p99s are of all rounds' requests together.
//
//   node bench/reports-stall.mjs   (env BENCH_RATE requests/s, default 200; BENCH_REQUESTS_PER_DAY,
//                                   default 100000; BENCH_ROUNDS, default 3)
import * as fs from "node:fs";
import * as http from "node:http";
import { openMigratedDatabase, reportTypesFor, seedUsage } from "@asset-delivery/server";
import { apiDocument, apiHeaders } from "./lib/api.mjs";
import { createServeData, startServeProcess } from "../test/support/serve-process.cjs";
import { check, summarize } from "./lib/report.cjs";

const RATE = Number(process.env.BENCH_RATE ?? 200);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
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
      const kept = latencies.filter(([, dueAfter]) => dueAfter >= WARM_UP_MS).map(([latency]) => latency);
      resolve({ latencies: kept, seconds: (performance.now() - startedAt) / 1000 });
    };
    tick();
    if (until) until.then(finish, reject);
    else setTimeout(finish, durationS * 1000);
  });
}

/** p50, p99 and max of latencies in ms, rounded to 0.1 ms. */
function quantiles(latencies) {
  if (latencies.length === 0) throw new Error("no request was answered after the warm-up: raise BENCH_REQUESTS_PER_DAY or BENCH_RATE");
  const sorted = [...latencies].sort((x, y) => x - y);
  const at = (q) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] * 10) / 10;
  return { p50: at(0.5), p99: at(0.99), max: at(1), total: sorted.length };
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
    `reports-stall: ${seeded.events} usage events on ${seeded.days[0]} over ${SOURCES} Sources; GET at a steady ${RATE} requests/s; ${ROUNDS} rounds`,
  );
  // Each round starts from this copy, whose reports are not generated yet.
  const pristine = `${data.dbPath}.pristine`;
  fs.copyFileSync(data.dbPath, pristine);

  const during = [];
  const idle = [];
  for (let round = 1; round <= ROUNDS; round++) {
    for (const suffix of ["-wal", "-shm"]) fs.rmSync(`${data.dbPath}${suffix}`, { force: true });
    fs.copyFileSync(pristine, data.dbPath);

    // Loaded: from the server's start until its reports are listed.
    const startedAt = performance.now();
    server = await startServeProcess(data.dbPath, ["--rate-limits", "off"]);
    let generationS;
    const generated = pollReports(server.url, data.adminKey, (count) => count >= expectedReports).then(
      () => void (generationS = (performance.now() - startedAt) / 1000),
    );
    const loaded = await steadyLoad(`${server.url}/api/v1/sources/${ids[0]}`, data.adminKey, { until: generated });
    await server.stop();

    // Idle: the same server started again (nothing left to generate), the same requests as long.
    server = await startServeProcess(data.dbPath, ["--rate-limits", "off"]);
    let idleDone = false;
    const polled = pollReports(server.url, data.adminKey, () => idleDone);
    const quiet = await steadyLoad(`${server.url}/api/v1/sources/${ids[0]}`, data.adminKey, { durationS: loaded.seconds });
    idleDone = true;
    await polled;
    await server.stop();
    server = undefined;

    during.push(...loaded.latencies);
    idle.push(...quiet.latencies);
    const [l, q] = [quantiles(loaded.latencies), quantiles(quiet.latencies)];
    console.log(
      `  round ${round}: generated in ${generationS.toFixed(1)} s from start; p99 during ${l.p99} ms (${l.total} requests), idle ${q.p99} ms (${q.total})`,
    );
  }
  const [d, i] = [quantiles(during), quantiles(idle)];
  console.log(`  during generation: p99 ${d.p99} ms, p50 ${d.p50} ms, max ${d.max} ms, ${d.total} requests`);
  console.log(`  idle: p99 ${i.p99} ms, p50 ${i.p50} ms, max ${i.max} ms, ${i.total} requests`);

  summarize("reports-stall", [
    check("p99 during generation", d.p99, TARGETS.p99Ms, { atMost: true, unit: " ms" }),
    check("p99 during/idle", Math.round((d.p99 / Math.max(1, i.p99)) * 100) / 100, TARGETS.ratio, {
      atMost: true,
      describe: `(idle p99 ${i.p99} ms)`,
    }),
  ]);
} finally {
  await server?.stop();
  data.remove();
}
