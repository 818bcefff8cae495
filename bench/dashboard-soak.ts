// What an anonymous client can make the server keep (issue 54): the server's memory after 10,000
// hostile tries of each kind beside the same count of ordinary tries of that kind, side by side in
// one run on one server, and a legitimate sign-in in the middle of each hostile soak.
// - long emails: sign-ins whose email is 14 KB (ordinary: a normal email), from 200 addresses;
// - random cookies: the sign-in page with made-up session, sign-in form and device cookies
//   (ordinary: no cookie), from 200 addresses;
// - fresh addresses: the sign-in page and a sign-in, each try from a /64 never seen before, spread
//   over 16 /48s (ordinary: the same from 200 addresses);
// - port-suffixed forwarded values: sign-ins whose X-Forwarded-For is `203.0.113.7:<port>`, a new
//   port each time (ordinary: the address alone).
// Every sign-in of the soaks is for an email a guesser has already locked (50 failures from
// everywhere), so it is refused before any password is hashed: the soaks measure what is kept, not
// scrypt. Memory is the process's heap and external memory after two full garbage collections
// (the server runs in this process; the clients' garbage is collected with the rest), so it needs
// --expose-gc. Target: each kind's hostile growth within 16 MiB of its ordinary growth, and every
// legitimate sign-in answered 303. CPU-heavy (80,000 tries): run it alone.
//   TS_NODE_PROJECT=bench/tsconfig.json node --expose-gc -r ts-node/register bench/dashboard-soak.ts
//   (as `npm run bench -- dashboard-soak` runs it)
import { createUser, ensureAccount } from "@asset-delivery/server";
import { openPage, postForm } from "../test/support/dashboard-http";
import { startTestServer, type TestServer } from "../test/support/server";
import { check, summarize } from "./lib/report.cjs";

const TRIES = 10_000;
const CONCURRENCY = 16;
const MIB = 1024 * 1024;
const TARGET_MIB = 16;
const SIGNER = { email: "signer@example.com", password: "a bench signer's password" };
const LOCKED = "locked@example.com";

type Try = (i: number) => Promise<number>;
interface Kind {
  name: string;
  ordinary: Try;
  hostile: Try;
}

function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error("run with node --expose-gc (npm run bench -- dashboard-soak does)");
  gc();
  gc();
}

function retainedBytes(): number {
  collectGarbage();
  const { heapUsed, external } = process.memoryUsage();
  return heapUsed + external;
}

/** `count` tries, CONCURRENCY at a time: how many of each status. */
async function soak(count: number, attempt: Try): Promise<Map<number, number>> {
  const statuses = new Map<number, number>();
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < count; i = next++) {
      const status = await attempt(i);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return statuses;
}

const shown = (statuses: Map<number, number>) => [...statuses].map(([status, n]) => `${status}: ${n}`).join(", ");

async function main(): Promise<void> {
  // The proxy in front is this machine (every client of the run).
  const server: TestServer = await startTestServer({ trustProxy: "127.0.0.1" });
  try {
    ensureAccount(server.db, { name: "soak", plan: "enterprise", video: false });
    await createUser(server.db, { account: "soak", email: SIGNER.email, permissions: ["Sources"], password: SIGNER.password });
    const url = server.url;
    const ipv4 = (i: number) => `198.18.${(i >> 8) & 255}.${(i & 255) + 1}`;
    const poolAddress = (i: number) => ipv4(i % 200);

    // A form (its cookie and token) per address of the pool, opened once.
    const forms = new Map<string, Awaited<ReturnType<typeof openPage>>["session"]>();
    async function formFor(address: string) {
      let form = forms.get(address);
      if (!form) {
        form = (await openPage(url, undefined, "/dashboard/login", { "x-forwarded-for": address })).session;
        forms.set(address, form);
      }
      return form;
    }
    async function signIn(address: string, forwarded: string, email: string): Promise<number> {
      const form = await formFor(address);
      const answer = await postForm(
        url,
        form,
        "/dashboard/login",
        { email, password: "a wrong password" },
        { "x-forwarded-for": forwarded },
      );
      await answer.arrayBuffer();
      return answer.status;
    }
    async function page(forwarded: string, cookie?: string): Promise<number> {
      const answer = await fetch(`${url}/dashboard/login`, { headers: { "x-forwarded-for": forwarded, ...(cookie && { cookie }) } });
      await answer.arrayBuffer();
      return answer.status;
    }
    const random = (bytes: number) => Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString("base64url");
    // Never the same /64 twice: the next of 16 /48s each time, and in it the next /64.
    let fresh = 0;
    const freshIpv6 = () => {
      const n = fresh++;
      return `2001:db8:${(n % 16).toString(16)}:${(n >> 4).toString(16)}::1`;
    };

    // The locked email: 50 failures from 50 addresses (hashed once each), then every try waits.
    await soak(51, (i) => signIn(ipv4(1000 + i), ipv4(1000 + i), LOCKED));

    const kinds: Kind[] = [
      {
        name: "long emails",
        ordinary: (i) => signIn(poolAddress(i), poolAddress(i), LOCKED),
        hostile: (i) => signIn(poolAddress(i), poolAddress(i), `${i}${"x".repeat(14_000)}@example.com`),
      },
      {
        name: "random cookies",
        ordinary: (i) => page(poolAddress(i)),
        hostile: (i) =>
          page(
            poolAddress(i),
            `asset_delivery_session=${random(24)}.${random(32)}; asset_delivery_sign_in=${random(16)}; asset_delivery_device=${random(16)}.${random(32)}`,
          ),
      },
      {
        name: "fresh addresses",
        ordinary: async (i) => {
          await page(poolAddress(i));
          return signIn(poolAddress(i), poolAddress(i), LOCKED);
        },
        hostile: async (i) => {
          const address = freshIpv6();
          await page(address);
          return signIn(poolAddress(i), address, LOCKED);
        },
      },
      {
        name: "port-suffixed forwarded values",
        ordinary: (i) => signIn(poolAddress(i), "203.0.113.7", LOCKED),
        hostile: (i) => signIn(poolAddress(i), `203.0.113.7:${1024 + (i % 60_000)}`, LOCKED),
      },
    ];

    for (const kind of kinds) {
      await soak(300, kind.ordinary); // warm up
      await soak(300, kind.hostile);
    }

    const checks = [];
    let signInsOk = 0;
    for (const [k, kind] of kinds.entries()) {
      const start = retainedBytes();
      const ordinaryStatuses = await soak(TRIES, kind.ordinary);
      const afterOrdinary = retainedBytes();
      // The legitimate sign-in, once the hostile soak is half done.
      let legitimate: Promise<number> | undefined;
      const hostileStatuses = await soak(TRIES, (i) => {
        if (i === TRIES / 2) {
          legitimate = (async () => {
            const address = `192.0.2.${k + 1}`;
            const form = await openPage(url, undefined, "/dashboard/login", { "x-forwarded-for": address });
            const answer = await postForm(url, form.session, "/dashboard/login", SIGNER, { "x-forwarded-for": address });
            await answer.arrayBuffer();
            return answer.status;
          })();
        }
        return kind.hostile(i);
      });
      const signedIn = await legitimate!;
      const afterHostile = retainedBytes();
      const ordinaryMiB = (afterOrdinary - start) / MIB;
      const hostileMiB = (afterHostile - afterOrdinary) / MIB;
      if (signedIn === 303) signInsOk++;
      console.log(
        `${kind.name}: ${TRIES} ordinary tries (${shown(ordinaryStatuses)}) ${ordinaryMiB.toFixed(2)} MiB; ` +
          `${TRIES} hostile tries (${shown(hostileStatuses)}) ${hostileMiB.toFixed(2)} MiB; ` +
          `a legitimate sign-in during it: ${signedIn}; retained after: ${(afterHostile / MIB).toFixed(1)} MiB`,
      );
      checks.push(
        check(`${kind.name}: hostile minus ordinary growth`, Number((hostileMiB - ordinaryMiB).toFixed(2)), TARGET_MIB, {
          atMost: true,
          unit: " MiB",
        }),
      );
    }
    checks.push(check("legitimate sign-ins during the soaks that succeeded", signInsOk, kinds.length, { unit: ` of ${kinds.length}` }));
    summarize("dashboard-soak", checks);
  } finally {
    await server.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
