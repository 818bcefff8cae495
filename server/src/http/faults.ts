// Fault injection for resilience runs: a plugin that buildApp registers only when `faults` is set,
// so the production app has none of it. A seeded share of API requests fails the way a real
// service and network do. Each chosen request gets one of four faults, equally likely: a 500 or a
// 429 (Retry-After: 1) before the handler runs, or the connection dropped without an answer,
// either before the handler runs (nothing written) or after it has committed.
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { seededRandom } from "../store/seeded-random";
import { HttpError, ERROR_TITLES } from "./errors";

export interface FaultOptions {
  /** Share of API requests that fail, from 0 to 1. */
  rate: number;
  /** Seed of the choice sequence: the same seed and request order give the same faults. */
  seed: number;
}

export const FAULT_KINDS = ["server-error", "rate-limited", "drop-before-handler", "drop-after-commit"] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

declare module "fastify" {
  interface FastifyInstance {
    /** How many faults of each kind were injected so far; only on an app built with `faults`. */
    injectedFaults: Record<FaultKind, number>;
  }
  interface FastifyRequest {
    /** Set when this request's connection is to be dropped once the handler has answered. */
    dropAfterCommit: boolean;
  }
}

function checkOptions(options: FaultOptions): void {
  if (!(options.rate >= 0 && options.rate <= 1)) throw new Error(`faults.rate: must be a number from 0 to 1 (got ${options.rate})`);
  if (!Number.isInteger(options.seed)) throw new Error(`faults.seed: must be an integer (got ${options.seed})`);
}

/** Routes that need a key are the API; the OpenAPI document and 405 answers are left alone. */
function isApiRequest(request: FastifyRequest): boolean {
  return request.routeOptions.config.permission !== undefined;
}

function dropConnection(request: FastifyRequest): void {
  request.raw.socket.destroy();
}

/** The faults as hooks: a preHandler, so only requests that passed auth and rate limits fail. */
export const faultsPlugin = fp(
  async function faults(app: FastifyInstance, options: FaultOptions) {
    checkOptions(options);
    const injected = Object.fromEntries(FAULT_KINDS.map((kind) => [kind, 0])) as Record<FaultKind, number>;
    app.decorate("injectedFaults", injected);
    if (options.rate === 0) return;
    const random = seededRandom(options.seed);
    app.decorateRequest("dropAfterCommit", false);

    app.addHook("preHandler", async (request, reply) => {
      if (!isApiRequest(request) || random() >= options.rate) return;
      const kind = FAULT_KINDS[Math.floor(random() * FAULT_KINDS.length)]!;
      injected[kind]++;
      switch (kind) {
        case "server-error":
          throw new HttpError(
            500,
            ERROR_TITLES[500]!,
            `Injected fault (server started with faults): the request was not processed. Request id ${request.id}.`,
          );
        case "rate-limited":
          throw new HttpError(429, ERROR_TITLES[429]!, "Injected fault (server started with faults): rate limited; retry in 1 s.", {
            headers: { "retry-after": "1" },
          });
        case "drop-before-handler":
          // Hijacked: Fastify neither runs the handler nor writes a response.
          reply.hijack();
          dropConnection(request);
          return;
        case "drop-after-commit":
          request.dropAfterCommit = true;
      }
    });

    // The handler has run (and committed); the answer it produced never leaves.
    app.addHook("onSend", async (request, _reply, payload) => {
      if (request.dropAfterCommit) dropConnection(request);
      return payload;
    });
  },
  { name: "faults", dependencies: ["auth"] },
);
