// Image-to-video generation jobs (spec 2.5, 3.2, 4.4).
import { z } from "zod";
import { expected, httpUrlSchema, nonBlankTextSchema } from "./rules";

export const VIDEO_MODELS = ["klingai", "veo2", "veo3"] as const;
/** Our documented limits where the spec says only "a higher character limit" and "seconds". */
export const VIDEO_PROMPT_MAX_LENGTH = 2500;
export const VIDEO_DURATION_RANGE = { min: 1, max: 10 } as const;

export const videoCreateRequestSchema = z.strictObject(
  {
    url: httpUrlSchema,
    prompt: nonBlankTextSchema(VIDEO_PROMPT_MAX_LENGTH),
    model: z.enum(VIDEO_MODELS, {
      error: (issue) => (issue.input === undefined ? "is required" : `must be one of ${VIDEO_MODELS.join(", ")}`),
    }),
    duration: z
      .int(expected("an integer number of seconds"))
      .min(VIDEO_DURATION_RANGE.min, { error: `must be from ${VIDEO_DURATION_RANGE.min} to ${VIDEO_DURATION_RANGE.max} seconds` })
      .max(VIDEO_DURATION_RANGE.max, { error: `must be from ${VIDEO_DURATION_RANGE.min} to ${VIDEO_DURATION_RANGE.max} seconds` }),
  },
  expected("a JSON object with url, prompt, model and duration"),
);
export type VideoCreateRequest = z.input<typeof videoCreateRequestSchema>;

/** Both status vocabularies of the interface (spec 3.2); our server answers with the first. */
export const VIDEO_JOB_STATUSES = ["preparing", "ready", "errored"] as const;
export const VIDEO_JOB_ALT_STATUSES = ["pending", "processing", "completed", "failed"] as const;
export const videoJobStatusSchema = z.enum([...VIDEO_JOB_STATUSES, ...VIDEO_JOB_ALT_STATUSES]);
export type VideoJobStatus = z.output<typeof videoJobStatusSchema>;

/** The outcomes a status can mean. */
export const videoJobPhaseSchema = z
  .enum(["waiting", "ready", "errored"])
  .describe("The status's outcome, whichever vocabulary the server speaks.");
export type VideoJobPhase = z.output<typeof videoJobPhaseSchema>;

/** Which outcome a status means, whichever vocabulary the server speaks. */
export function videoJobPhase(status: VideoJobStatus): VideoJobPhase {
  if (status === "ready" || status === "completed") return "ready";
  if (status === "errored" || status === "failed") return "errored";
  return "waiting";
}

// The attributes of spec 2.5; a description is what the plugin's schema and docs say of the field.
export const videoJobAttributesSchema = z.object({
  status: videoJobStatusSchema.describe("As the server says it (either vocabulary of the spec)."),
  created_at: z.int(),
  updated_at: z.int().optional(),
  result: z.object({ url: z.string() }).optional(),
  error: z.object({ code: z.int(), message: z.string() }).optional(),
});
export type VideoJobAttributes = z.output<typeof videoJobAttributesSchema>;

export const videoJobSchema = z.object({
  id: z.string(),
  type: z.literal("job"),
  attributes: videoJobAttributesSchema,
});
export type VideoJob = z.output<typeof videoJobSchema>;

/**
 * The body of a job response: the GET shape of section 2.5 (`data` holding the job). The spec does
 * not show the creation response; we answer it with the same document, the job in `preparing`.
 */
export const videoJobDocumentSchema = z.object({ data: videoJobSchema });
export type VideoJobDocument = z.output<typeof videoJobDocumentSchema>;
