// Credits a Source consumes, priced from its usage. Amounts are integer micro-credits (1e-6) so
// that sums are exact and a report is byte-for-byte reproducible.
import { CREDIT_COLUMNS } from "@asset-delivery/sdk";
import type { BillableUsage } from "../usage/queries";
import type { RenderClass } from "../usage/event";

export type CreditColumn = (typeof CREDIT_COLUMNS)[number];
/** The listed categories; `total_credits` is derived, never priced directly. */
export type CreditCategory = Exclude<CreditColumn, "total_credits">;

/** Micro-credits per category, plus `other`: billed usage with no column of its own (origin fetches). */
export type CreditAmounts = Record<CreditCategory | "other", number>;

const PER_RENDER: Partial<Record<RenderClass, [CreditCategory, number]>> = {
  standard: ["standard_renders_credits", 1_000],
  advanced: ["advanced_renders_credits", 2_000],
  premium: ["premium_renders_credits", 5_000],
  specialized: ["specialized_transformations_credits", 10_000],
};

const PER_VIDEO_SECOND: Partial<Record<RenderClass, [CreditCategory, number]>> = {
  video_encoding: ["premium_video_encoding_seconds_credits", 20_000],
  video_smartcropping: ["video_smartcropping_seconds_credits", 10_000],
  video_preview: ["video_preview_seconds_credits", 5_000],
};

/** The price list, in micro-credits, as documented in docs/emulator.md ("Reports", credits). */
export const PRICES = {
  /** A cache hit read from the render cache. */
  cacheRead: 100,
  /** A cache miss fetches the origin image: billed as `other`. */
  originFetch: 200,
  /** Delivery bandwidth: 0.5 credits per GB (10^9 bytes) delivered. */
  deliveryPerGb: 500_000,
  /** Storage: 0.02 credits per GB-day of distinct origin images requested that day. */
  storagePerGbDay: 20_000,
} as const;

export function zeroCredits(): CreditAmounts {
  return Object.fromEntries([...CREDIT_COLUMNS.filter((c) => c !== "total_credits"), "other"].map((c) => [c, 0])) as CreditAmounts;
}

/**
 * Credits of one Source's usage on one day. Renders are billed on cache misses that succeeded;
 * video classes per second processed; bandwidth and storage are priced on the day's totals.
 */
export function priceDay(usage: BillableUsage): CreditAmounts {
  const credits = zeroCredits();
  for (const [renderClass, count] of Object.entries(usage.renders) as [RenderClass, number][]) {
    const render = PER_RENDER[renderClass];
    if (render) credits[render[0]] += render[1] * count;
  }
  for (const [renderClass, seconds] of Object.entries(usage.videoSeconds) as [RenderClass, number][]) {
    const video = PER_VIDEO_SECOND[renderClass];
    if (video) credits[video[0]] += Math.round(video[1] * seconds);
  }
  credits.cache_reads_credits = PRICES.cacheRead * usage.cacheHits;
  credits.other = PRICES.originFetch * usage.originFetches;
  credits.delivery_bandwidth_credits = Math.round((usage.deliveredBytes * PRICES.deliveryPerGb) / 1e9);
  credits.storage_credits = Math.round((usage.storedBytes * PRICES.storagePerGbDay) / 1e9);
  return credits;
}

export function addCredits(a: CreditAmounts, b: CreditAmounts): CreditAmounts {
  const sum = zeroCredits();
  for (const key of Object.keys(sum) as (keyof CreditAmounts)[]) sum[key] = a[key] + b[key];
  return sum;
}

/** Every category including `other`: the authoritative total. */
export function totalOf(credits: CreditAmounts): number {
  return Object.values(credits).reduce((sum, amount) => sum + amount, 0);
}

/** Micro-credits as a decimal with six places, without floating-point rounding. */
export function formatCredits(micro: number): string {
  return `${Math.floor(micro / 1e6)}.${String(micro % 1e6).padStart(6, "0")}`;
}
