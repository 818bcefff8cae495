// A deterministic, realistic sample of usage for `asset-delivery usage seed`: the same Sources and
// days always give the same events. Traffic follows a daily curve peaking at 14:00 UTC, a few hot
// images take most requests, and a small share of requests fail with a 4xx.
import { seededRandom } from "../store/seeded-random";
import { startOfDay, type UtcDay } from "./days";
import type { RenderClass, UsageEvent } from "./event";

export interface SeedOptions {
  sourceIds: readonly string[];
  days: readonly UtcDay[];
  /** Average requests per Source per day. */
  requestsPerDay: number;
}

/** FNV-1a, to turn a Source and day into a seed. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

function pickWeighted<T>(random: () => number, items: readonly (readonly [T, number])[]): T {
  const total = items.reduce((sum, [, weight]) => sum + weight, 0);
  let at = random() * total;
  for (const [item, weight] of items) {
    at -= weight;
    if (at < 0) return item;
  }
  return items[items.length - 1]![0];
}

const IMAGE_COUNT = 40;
const IMAGES = Array.from({ length: IMAGE_COUNT }, (_, i) => `/catalog/item-${String(i + 1).padStart(3, "0")}.jpg`);
// Zipf-like popularity: the first few images take most of the traffic.
const IMAGE_WEIGHTS = IMAGES.map((image, rank) => [image, 1 / (rank + 1) ** 1.1] as const);
const WIDTHS = [
  [400, 5],
  [800, 3],
  [1200, 2],
] as const;
const HOURLY_WEIGHTS = Array.from({ length: 24 }, (_, hour) => [hour, 1 + 0.8 * Math.cos((2 * Math.PI * (hour - 14)) / 24)] as const);
const RENDER_CLASSES: readonly (readonly [RenderClass, number])[] = [
  ["standard", 80],
  ["advanced", 12],
  ["premium", 5],
  ["specialized", 2],
  ["video_preview", 1],
];
const REFERERS = [
  ["", 30],
  ["https://shop.example.com/", 40],
  ["https://www.example.com/blog/", 20],
  ["https://partner.example.org/", 10],
] as const;
const USER_AGENTS = [
  ["Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36", 50],
  [
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
    35,
  ],
  ["curl/8.5.0", 5],
  ["", 10],
] as const;
// Share of requests that fail, per status.
const FAILURES = [
  [404, 0.03],
  [403, 0.005],
  [400, 0.005],
  [502, 0.001],
] as const;

function sampleDay(sourceId: string, day: UtcDay, requestsPerDay: number): UsageEvent[] {
  const random = seededRandom(hash(`${sourceId}/${day}`));
  // Weekly variation of up to +-20 %, so days differ.
  const count = Math.max(1, Math.round(requestsPerDay * (0.8 + 0.4 * random())));
  const dayStart = startOfDay(day);
  const events: UsageEvent[] = [];
  for (let n = 0; n < count; n++) {
    const hour = pickWeighted(random, HOURLY_WEIGHTS);
    const timestampMs = dayStart + hour * 3_600_000 + Math.floor(random() * 3_600_000);
    const roll = random();
    let failure: number | undefined;
    let threshold = 0;
    for (const [status, share] of FAILURES) {
      threshold += share;
      if (roll < threshold) {
        failure = status;
        break;
      }
    }
    const imageIndex = IMAGES.indexOf(pickWeighted(random, IMAGE_WEIGHTS));
    const image = failure === 404 ? `/catalog/missing-${Math.floor(random() * 5) + 1}.jpg` : IMAGES[imageIndex]!;
    const width = pickWeighted(random, WIDTHS);
    const renderClass = failure ? "none" : pickWeighted(random, RENDER_CLASSES);
    const cacheHit = !failure && random() < (imageIndex < 5 ? 0.92 : 0.7);
    const originBytes = failure ? 0 : 500_000 + ((imageIndex * 7919) % 3_500_000);
    events.push({
      timestampMs,
      sourceId,
      path: `${image}?w=${width}&auto=format`,
      status: failure ?? 200,
      bytes: failure ? 0 : Math.round((width / 1200) * (60_000 + ((imageIndex * 104_729) % 240_000)) * (0.9 + 0.2 * random())),
      cacheHit,
      responseMs: Math.round(cacheHit ? 5 + random() * 35 : 80 + random() * 520),
      referer: pickWeighted(random, REFERERS),
      userAgent: pickWeighted(random, USER_AGENTS),
      renderClass,
      originBytes,
      videoSeconds: renderClass === "video_preview" ? 3 + Math.floor(random() * 8) : 0,
    });
  }
  return events.sort((a, b) => a.timestampMs - b.timestampMs);
}

/** The sample usage of every Source on every day, in time order per day and Source. */
export function sampleUsage(options: SeedOptions): UsageEvent[] {
  if (!Number.isInteger(options.requestsPerDay) || options.requestsPerDay < 1) {
    throw new RangeError("requests per day: must be an integer >= 1");
  }
  return options.days.flatMap((day) => options.sourceIds.flatMap((sourceId) => sampleDay(sourceId, day, options.requestsPerDay)));
}
