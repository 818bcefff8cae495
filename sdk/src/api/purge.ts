// Purges: removing a cached asset and all its derivatives. The spec names the Purge permission and
// the "purge asset" rate limit (10 per second) but does not show the call; this follows the
// vendor's public Management API docs ("purges"): POST /api/v1/purge with the asset's URL.
import { z } from "zod";
import { anyHttpUrlSchema, expected } from "./rules";
import { sourceIdSchema } from "./source";

/** The service's delivery domain of this emulator: service subdomains are `<label>.<delivery domain>`. */
export const DEFAULT_DELIVERY_DOMAIN = "delivery.example";

/** A second purge of the same URL this soon after the first may be answered 409 (it still takes effect). */
export const PURGE_REPEAT_WINDOW_MS = 10_000;

export const purgeAttributesSchema = z
  .strictObject(
    {
      // Query parameters are ignored: a purge removes every derivative of the path.
      url: anyHttpUrlSchema,
      sub_image: z.boolean(expected("true or false")).optional(),
      source_id: sourceIdSchema.optional(),
    },
    expected("an object with url (and optionally sub_image and source_id)"),
  )
  .superRefine((value, context) => {
    if (value.sub_image === true && value.source_id === undefined) {
      context.addIssue({
        code: "custom",
        path: ["source_id"],
        message: "is required with sub_image: true (the Source whose images use the sub-image)",
      });
    }
    if (value.sub_image !== true && value.source_id !== undefined) {
      context.addIssue({ code: "custom", path: ["source_id"], message: "is only accepted with sub_image: true" });
    }
  });
export type PurgeAttributes = z.input<typeof purgeAttributesSchema>;

export const purgeSchema = z.object({
  id: z.uuid({ error: "must be a UUID" }),
  type: z.literal("purges"),
  attributes: z.object({ purge_id: z.uuid({ error: "must be a UUID" }) }),
});
export type Purge = z.output<typeof purgeSchema>;
