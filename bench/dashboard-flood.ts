// The API beside a dashboard flood: one signed-in user reloading the Reports page (30 days of
// reports) from 2 tabs as fast as the server answers, while another account reads its Sources one
// request after another; the p99 of 1,000 such reads under the flood beside the p99 of 1,000 with
// nothing else running, in one run, on one server. The flood meets the dashboard's rate limit
// (429) and the credits chart is computed once per account and set of reports, so the API should
// barely notice. Target: p99 under the flood <= 2x idle. Noisy on a loaded machine: run it alone.
//   TS_NODE_PROJECT=bench/tsconfig.json node -r ts-node/register bench/dashboard-flood.ts
//   (as `npm run bench -- dashboard-flood` runs it)
import { signInOverHttp } from "../test/support/dashboard-http";
import { accountWithReports, apiReads, floodPage, p99 } from "../test/support/dashboard-flood";
import { startTestServer } from "../test/support/server";
import { check, summarize } from "./lib/report.cjs";

const READS = 1000;
const READER = { email: "reader@example.com", password: "a bench reader's password" };
const TARGET_RATIO = 2;

async function main(): Promise<void> {
  const server = await startTestServer();
  try {
    await accountWithReports(server, "flooded", READER, 30);
    const otherKey = server.accountKey(["Sources"], "bystander");
    const session = await signInOverHttp(server.url, READER.email, READER.password);
    await apiReads(server.url, otherKey, 50); // warm up
    const idle = p99((await apiReads(server.url, otherKey, READS)).durations);

    const flood = floodPage(`${server.url}/dashboard/reports`, session.cookie, 2);
    await new Promise((resolve) => setTimeout(resolve, 500)); // the flood under way
    const loaded = p99((await apiReads(server.url, otherKey, READS)).durations);
    const { statuses } = await flood.stop();
    const refused = statuses.filter((status) => status === 429).length;

    console.log(
      `dashboard requests ${statuses.length} (429: ${refused}); API p99 idle ${idle.toFixed(2)} ms, under the flood ${loaded.toFixed(2)} ms`,
    );
    summarize("dashboard-flood", [check("API p99 under the flood / idle", loaded / idle, TARGET_RATIO, { atMost: true })]);
  } finally {
    await server.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
