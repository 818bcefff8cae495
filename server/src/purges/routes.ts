// POST /api/v1/purge (permission Purge, rate-limit class "purge asset"): as the vendor's docs
// describe it. The URL's host must be one of the account's Sources' hostnames (a sub-image may be
// anywhere: it is named with the Source that uses it); the purge is recorded with that Source.
// 200 means accepted, not finished. A second purge of the same URL within 10 s is answered 409.
import type { FastifyInstance } from "fastify";
import {
  API_ROUTES,
  createDocumentSchema,
  PURGE_REPEAT_WINDOW_MS,
  purgeAttributesSchema,
  purgeSchema,
  singleDocumentSchema,
  type Purge,
} from "@asset-delivery/sdk";
import { singleDocument } from "../http/documents";
import { HttpError, ERROR_TITLES, validationFailed } from "../http/errors";
import { defineRoute } from "../http/route";
import type { PurgeStore } from "./purge-store";

function fieldError(field: "url" | "source_id", rule: string): HttpError {
  return validationFailed([{ path: `data.attributes.${field}`, rule, segments: ["data", "attributes", field] }]);
}

export function definePurgeRoutes(app: FastifyInstance, purges: PurgeStore, deliveryDomain: string): void {
  const { now } = app.appOptions;
  const serviceSuffix = `.${deliveryDomain.toLowerCase()}`;

  /** The account's Source serving `hostname`: a service subdomain label on the delivery domain, or a custom domain. */
  function sourceOfHost(accountId: string, hostname: string): string | undefined {
    if (hostname.endsWith(serviceSuffix)) {
      const label = hostname.slice(0, -serviceSuffix.length);
      return label.includes(".") ? undefined : purges.sourceOfHostname(accountId, "service_subdomains", label);
    }
    return purges.sourceOfHostname(accountId, "custom_domains", hostname);
  }

  defineRoute(app, {
    route: API_ROUTES.purge,
    permission: "Purge",
    body: createDocumentSchema("purges", purgeAttributesSchema),
    errors: [409],
    response: singleDocumentSchema(purgeSchema),
    status: 200,
    summary: "Purge an asset and all its derivatives from the caches (accepted, not finished)",
    handler({ request, auth, body }) {
      const { url, sub_image: subImage = false, source_id: namedSource } = body.data.attributes;
      const parsed = new URL(url);
      // The query is ignored: every derivative of the path is purged.
      const purgedUrl = `${parsed.protocol}//${parsed.hostname}${parsed.pathname}`;
      // The schema requires source_id exactly when sub_image is true.
      const sourceId = subImage ? namedSource! : sourceOfHost(auth.accountId, parsed.hostname);
      if (subImage && !purges.isAccountSource(auth.accountId, sourceId!))
        throw fieldError("source_id", `no Source "${sourceId}" in this account`);
      if (sourceId === undefined) {
        throw fieldError(
          "url",
          `the host "${parsed.hostname}" must be a service subdomain on ${deliveryDomain} or a custom domain of one of this account's Sources`,
        );
      }
      const at = now();
      const last = purges.lastPurgedAt(auth.accountId, purgedUrl);
      if (last !== undefined && at - last < PURGE_REPEAT_WINDOW_MS) {
        throw new HttpError(
          409,
          ERROR_TITLES[409]!,
          `${purgedUrl} is already being purged (accepted ${Math.max(0, Math.round((at - last) / 1000))} s ago); purges of the same URL must be at least ${PURGE_REPEAT_WINDOW_MS / 1000} seconds apart.`,
        );
      }
      const id = purges.record({ accountId: auth.accountId, sourceId, url: purgedUrl, subImage, keyId: auth.keyId, createdAt: at });
      const purge: Purge = { id, type: "purges", attributes: { purge_id: id } };
      return singleDocument(request, purge);
    },
  });
}
