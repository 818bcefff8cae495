// The usage ledger's input: one request served by a Source, as `asset-delivery usage import`
// reads it (one JSON object per line) and as the seeder produces it.
import { describeIssues, expected, fieldIssues, sourceIdSchema } from "@asset-delivery/sdk";
import { z } from "zod";

/** How a response was produced; decides which credit category a render is billed to. */
export const RENDER_CLASSES = [
  "none",
  "standard",
  "advanced",
  "premium",
  "specialized",
  "video_encoding",
  "video_smartcropping",
  "video_preview",
] as const;
export type RenderClass = (typeof RENDER_CLASSES)[number];

const TIMESTAMP_RULE = "must be an ISO 8601 date-time (e.g. 2024-11-18T13:45:12Z) or Unix seconds";
const timestampSchema = z.union(
  [z.iso.datetime({ offset: true, error: TIMESTAMP_RULE }), z.number({ error: TIMESTAMP_RULE }).nonnegative({ error: TIMESTAMP_RULE })],
  { error: (issue) => (issue.input === undefined ? "is required" : TIMESTAMP_RULE) },
);

const STATUS_RULE = "must be an HTTP status code from 100 to 599";

export const usageEventSchema = z.strictObject(
  {
    timestamp: timestampSchema,
    source_id: sourceIdSchema,
    path: z.string(expected("a string")).regex(/^\/\S*$/, { error: "must be the requested path, starting with / (query string included)" }),
    status: z.int(expected("an integer")).min(100, { error: STATUS_RULE }).max(599, { error: STATUS_RULE }),
    bytes: z.int(expected("an integer")).nonnegative({ error: "must be the number of bytes delivered, >= 0" }),
    cache_hit: z.boolean(expected("true or false")),
    response_ms: z.number(expected("a number")).nonnegative({ error: "must be the response time in milliseconds, >= 0" }),
    referer: z.string(expected("a string (blank when none was sent)")).max(2048, { error: "must be at most 2048 characters" }).default(""),
    user_agent: z
      .string(expected("a string (blank when none was sent)"))
      .max(1024, { error: "must be at most 1024 characters" })
      .default(""),
    render_class: z.enum(RENDER_CLASSES, { error: `must be one of ${RENDER_CLASSES.join(", ")}` }).default("standard"),
    origin_bytes: z.int(expected("an integer")).nonnegative({ error: "must be the size of the origin image in bytes, >= 0" }).default(0),
    video_seconds: z.number(expected("a number")).nonnegative({ error: "must be seconds of video processed, >= 0" }).default(0),
  },
  expected("a JSON object (one usage event)"),
);
export type UsageEventInput = z.input<typeof usageEventSchema>;

/** A usage event as the ledger keeps it. */
export interface UsageEvent {
  timestampMs: number;
  sourceId: string;
  path: string;
  status: number;
  bytes: number;
  cacheHit: boolean;
  responseMs: number;
  referer: string;
  userAgent: string;
  renderClass: RenderClass;
  originBytes: number;
  videoSeconds: number;
}

/** Validates one event; the error names the field and the rule. */
export function parseUsageEvent(value: unknown): UsageEvent {
  const parsed = usageEventSchema.safeParse(value);
  if (!parsed.success) throw new TypeError(describeIssues(fieldIssues(parsed.error)));
  const e = parsed.data;
  return {
    timestampMs: typeof e.timestamp === "number" ? Math.round(e.timestamp * 1000) : Date.parse(e.timestamp),
    sourceId: e.source_id,
    path: e.path,
    status: e.status,
    bytes: e.bytes,
    cacheHit: e.cache_hit,
    responseMs: e.response_ms,
    referer: e.referer,
    userAgent: e.user_agent,
    renderClass: e.render_class,
    originBytes: e.origin_bytes,
    videoSeconds: e.video_seconds,
  };
}

/** Parses JSON lines; blank lines are skipped, a bad line fails the whole input with its number. */
export function parseUsageLines(text: string): UsageEvent[] {
  const events: UsageEvent[] = [];
  text.split(/\r?\n/).forEach((line, index) => {
    if (line.trim() === "") return;
    try {
      events.push(parseUsageEvent(JSON.parse(line)));
    } catch (error) {
      throw new TypeError(`line ${index + 1}: ${(error as Error).message}`, { cause: error });
    }
  });
  return events;
}

/** The image at the origin a request was rendered from: the path without its query string. */
export function originImageOf(path: string): string {
  const query = path.indexOf("?");
  return query === -1 ? path : path.slice(0, query);
}
