// Two floods of the dashboard, each measured against idle side by side in one run, on one server:
// - The API beside a page flood: one signed-in user reloading the Reports page (30 days of
//   reports) from 2 tabs as fast as the server answers, while another account reads its Sources
//   one request after another; the p99 of 1,000 such reads under the flood beside the p99 of 1,000
//   with nothing else running. The flood meets the dashboard's rate limit (429) and the credits
//   chart is computed once per account and set of reports, so the API should barely notice.
//   Target: p99 under the flood <= 2x idle.
// - A legitimate sign-in beside a sign-in flood: wrong passwords from 100 client addresses (through
//   the trusted proxy's X-Forwarded-For), 2 at a time from each, pausing 200 ms after a refusal (a
//   guessing flood that keeps both password-hashing slots busy and the line full, not a connection
//   flood, which is a proxy's job), while a person signs in (form, then password) from a quiet
//   address, 20 times from 20 addresses; the median and the slowest beside 20 sign-ins with nothing
//   else running. The line serves first whoever asked longest ago, so the person waits for the
//   hashes under way, not behind the flood. Target: every sign-in succeeds, the median under the
//   flood <= 4x idle.
// Noisy on a loaded machine: run it alone.
//   TS_NODE_PROJECT=bench/tsconfig.json node -r ts-node/register bench/dashboard-flood.ts
//   (as `npm run bench -- dashboard-flood` runs it)
import { createUser } from "@asset-delivery/server";
import { openPage, postForm, signInOverHttp } from "../test/support/dashboard-http";
import { accountWithReports, apiReads, floodPage, floodSignIns, p99 } from "../test/support/dashboard-flood";
import { startTestServer, type TestServer } from "../test/support/server";
import { check, median, summarize } from "./lib/report.cjs";

const READS = 1000;
const READER = { email: "reader@example.com", password: "a bench reader's password" };
const SIGNER = { email: "signer@example.com", password: "a bench signer's password" };
const TARGET_RATIO = 2;
const SIGN_INS = 20;
const SIGN_IN_FLOOD = { addresses: 100, tabs: 2, pauseMs: 200 };
const SIGN_IN_TARGET_RATIO = 4;

/** `SIGN_INS` sign-ins through the form, each from its own quiet address: each one's status and duration (ms). */
async function timedSignIns(server: TestServer, network: string): Promise<{ statuses: number[]; durations: number[] }> {
  const statuses: number[] = [];
  const durations: number[] = [];
  for (let i = 0; i < SIGN_INS; i++) {
    const headers = { "x-forwarded-for": `${network}.${i + 1}` };
    const started = performance.now();
    const form = await openPage(server.url, undefined, "/dashboard/login", headers);
    const answer = await postForm(server.url, form.session, "/dashboard/login", SIGNER, headers);
    await answer.arrayBuffer();
    durations.push(performance.now() - started);
    statuses.push(answer.status);
  }
  return { statuses, durations };
}

async function main(): Promise<void> {
  // The proxy in front is this machine (the floods' and the measurements' clients).
  const server = await startTestServer({ trustProxy: "127.0.0.1" });
  try {
    await accountWithReports(server, "flooded", READER, 30);
    await createUser(server.db, { account: "flooded", email: SIGNER.email, permissions: ["Sources"], password: SIGNER.password });
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

    await timedSignIns(server, "198.18.9"); // warm up
    const signInIdle = await timedSignIns(server, "198.18.0");
    const signInFlood = floodSignIns(server.url, SIGN_IN_FLOOD);
    await new Promise((resolve) => setTimeout(resolve, 2_000)); // under way: the slots busy, the line full
    const signInLoaded = await timedSignIns(server, "198.18.1");
    const flooded = await signInFlood.stop();
    const hashed = flooded.statuses.filter((status) => status === 401).length;
    const turnedAway = flooded.statuses.filter((status) => status === 429).length;
    const succeeded = signInLoaded.statuses.filter((status) => status === 303).length;
    const [idleMedian, loadedMedian] = [median(signInIdle.durations), median(signInLoaded.durations)];
    console.log(
      `sign-in flood from ${SIGN_IN_FLOOD.addresses} addresses: ${flooded.statuses.length} answers (401, checked: ${hashed}; 429: ${turnedAway}); ` +
        `a legitimate sign-in (form + password) idle: median ${idleMedian.toFixed(0)} ms, slowest ${Math.max(...signInIdle.durations).toFixed(0)} ms; ` +
        `under the flood: median ${loadedMedian.toFixed(0)} ms, slowest ${Math.max(...signInLoaded.durations).toFixed(0)} ms, ` +
        `${succeeded} of ${SIGN_INS} signed in (statuses ${[...new Set(signInLoaded.statuses)].join(", ")})`,
    );
    summarize("dashboard-flood", [
      check("API p99 under the flood / idle", loaded / idle, TARGET_RATIO, { atMost: true }),
      check("sign-ins under the sign-in flood that succeeded", succeeded, SIGN_INS, { unit: ` of ${SIGN_INS}` }),
      check("sign-in median under the sign-in flood / idle", loadedMedian / idleMedian, SIGN_IN_TARGET_RATIO, { atMost: true }),
    ]);
  } finally {
    await server.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
