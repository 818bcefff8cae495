// SDK overhead: `client.sources.get` against a raw undici request to the same URL, both over
// keep-alive to the real server (a child process, rate limits off). The raw side reads the body and
// parses it as JSON (bytes are not yet a Source); the SDK also checks it against the Source schema,
// arms a deadline timer and runs its retry and hook layers. Pacing is off for the measurement: it
// is a deliberate limit (4 requests per second by default), not overhead.
// Many short rounds alternate which side goes first, so that a busy machine's ups and downs fall
// on both sides alike; each side's median time per call is compared.
//
//   node bench/sdk.mjs   (env BENCH_CALLS per side per round, default 100; BENCH_ROUNDS, default 31)
import { createRequire } from "node:module";
import { createClient } from "@asset-delivery/sdk";
import { apiHeaders } from "./lib/api.mjs";
import { createServeData, startServeProcess } from "../test/support/serve-process.cjs";
import { check, median, summarize } from "./lib/report.cjs";

// The raw side uses the undici the SDK itself runs on (the root node_modules may hold another major).
const { Agent, request } = createRequire(createRequire(import.meta.url).resolve("@asset-delivery/sdk"))("undici");

const CALLS = Number(process.env.BENCH_CALLS ?? 100);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 31);
const TARGET = 1 / 1.2;

/** Microseconds per call of `call`, made `CALLS` times in sequence. */
async function timePerCall(call) {
  const started = performance.now();
  for (let i = 0; i < CALLS; i++) await call();
  return ((performance.now() - started) * 1000) / CALLS;
}

const data = createServeData();
const server = await startServeProcess(data.dbPath, ["--rate-limits", "off"]);
const client = createClient({ baseUrl: server.url, apiKey: data.adminKey, pacing: false });
const agent = new Agent({ keepAliveTimeout: 10_000 });
try {
  const { id } = await client.sources.create({
    name: "bench sdk",
    deployment: { type: "webfolder", service_subdomains: ["bench-sdk"], webfolder_base_url: "https://origin.example.com/images/" },
  });
  const url = `${server.url}/api/v1/sources/${id}`;
  const headers = apiHeaders(data.adminKey);
  const sides = {
    sdk: () => client.sources.get(id),
    raw: async () => {
      const response = await request(url, { headers, dispatcher: agent });
      if (response.statusCode !== 200) throw new Error(`raw GET answered ${response.statusCode}`);
      JSON.parse(await response.body.text());
    },
  };
  console.log(`sdk: ${CALLS} sequential GETs of one Source per side per round, ${ROUNDS} rounds, keep-alive, pacing off`);
  // Warm-up: connections, and the JIT of both processes, which takes thousands of calls to settle.
  for (let i = 0; i < 30; i++) for (const side of Object.values(sides)) await timePerCall(side);
  const times = { sdk: [], raw: [] };
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? ["sdk", "raw"] : ["raw", "sdk"];
    for (const side of order) times[side].push(await timePerCall(sides[side]));
  }
  const sdk = median(times.sdk);
  const raw = median(times.raw);
  console.log(`rounds (sdk/raw µs per call): ${times.sdk.map((t, i) => `${t.toFixed(0)}/${times.raw[i].toFixed(0)}`).join(" ")}`);
  console.log(
    `sources.get: sdk ${sdk.toFixed(0)} µs/call (${(1e6 / sdk).toFixed(0)} calls/s), raw undici ${raw.toFixed(0)} µs/call (${(1e6 / raw).toFixed(0)} calls/s)`,
  );
  summarize("sdk", [check("sources.get", raw / sdk, Number(TARGET.toFixed(2)), { describe: "raw undici speed" })]);
} finally {
  await client.close();
  await agent.close();
  await server.stop();
  data.remove();
}
