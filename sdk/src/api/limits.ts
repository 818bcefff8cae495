// Rate limits (spec section 8), shared by the server (which enforces them per account) and the
// client (which paces itself so that a caller at full speed never sees a 429). Which class a
// request counts against is a property of its route, declared once in `API_ROUTES` (routes.ts).

/**
 * Each endpoint class is a token bucket: up to `limit` requests at once, refilled continuously
 * at `limit` per `intervalMs`.
 */
export const RATE_LIMITS = {
  default: { limit: 4, intervalMs: 1_000 },
  createSource: { limit: 60, intervalMs: 3_600_000 },
  updateSource: { limit: 60, intervalMs: 3_600_000 },
  purgeAsset: { limit: 10, intervalMs: 1_000 },
} as const;

export type EndpointClass = keyof typeof RATE_LIMITS;

/** A token bucket's state: its tokens (fractional) as of `updatedAt` (milliseconds). */
export interface BucketState {
  tokens: number;
  updatedAt: number;
}

/**
 * The bucket's tokens at `now`, refilled continuously at `limit` per `intervalMs` and never above
 * `capacity`: the one refill rule of the server's limits and the client's pacing.
 */
export function refilledTokens(bucket: BucketState, now: number, rate: { limit: number; intervalMs: number }, capacity: number): number {
  return Math.min(capacity, bucket.tokens + Math.max(0, now - bucket.updatedAt) * (rate.limit / rate.intervalMs));
}

export type RateTable = Record<EndpointClass, { limit: number; intervalMs: number }>;

const HOUR_MS = 3_600_000;

/**
 * The classes the spec limits per hour (creating and updating Sources): budgets a run can spend
 * for an hour, which the client sends one request at a time and the provider reports on.
 */
export const HOURLY_CLASSES = (Object.keys(RATE_LIMITS) as EndpointClass[]).filter((name) => RATE_LIMITS[name].intervalMs === HOUR_MS);

export function isHourlyClass(endpointClass: EndpointClass): boolean {
  return HOURLY_CLASSES.includes(endpointClass);
}

/**
 * The spec's limits with the hourly classes counted per `hourMs` instead of per hour (the same
 * counts): the emulator's `--rate-limit-hour`, for tests and demos of hour-long budgets in minutes.
 */
export function limitsWithHour(hourMs: number): RateTable {
  return Object.fromEntries(
    (Object.keys(RATE_LIMITS) as EndpointClass[]).map((name) => [
      name,
      isHourlyClass(name) ? { limit: RATE_LIMITS[name].limit, intervalMs: hourMs } : RATE_LIMITS[name],
    ]),
  ) as RateTable;
}

const DURATION_UNITS_MS = { ms: 1, s: 1_000, m: 60_000, h: HOUR_MS } as const;

/**
 * A duration as settings write it: whole numbers with units `h`, `m`, `s` or `ms`, largest first,
 * e.g. `90s`, `10m`, `2h`, `1h30m`. Undefined when the text is not one.
 */
export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim();
  if (!/^(?:\d+(?:ms|h|m|s))+$/.test(trimmed)) return undefined;
  let total = 0;
  for (const [, amount, unit] of trimmed.matchAll(/(\d+)(ms|h|m|s)/g))
    total += Number(amount) * DURATION_UNITS_MS[unit as keyof typeof DURATION_UNITS_MS];
  return total;
}

/** A duration for people: `3 h 19 min`, `12 min`, `40 s`, `400 ms` (rounded up to the unit shown). */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.ceil(Math.max(0, ms))} ms`;
  const seconds = Math.ceil(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
}

/** A limit's window for people: `hour`, `minute`, `second`, `24 seconds`. */
export function intervalName(intervalMs: number): string {
  const units: [number, string][] = [
    [HOUR_MS, "hour"],
    [60_000, "minute"],
    [1_000, "second"],
  ];
  const [size, name] = units.find(([unit]) => intervalMs % unit === 0) ?? [1, "millisecond"];
  return intervalMs === size ? name : `${intervalMs / size} ${name}s`;
}
