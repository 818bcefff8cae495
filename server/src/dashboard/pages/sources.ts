// The Sources view: the account's Sources with the API's own filters, sorts and paging (the same
// parameter names, parsed by the sdk's parseListQuery, run by the same store), statuses kept live
// by a small script polling /dashboard/sources/status while a deployment runs, and a Source's page.
// Resources come from the API's sourceResource without the secure URL token: no secret is rendered.
import type { FastifyInstance } from "fastify";
import { PRESENCE_FLAG_FIELDS, SOURCE_TYPES, sourceListSpec, type Source } from "@asset-delivery/sdk";
import { sourceResource } from "../../sources/source-view";
import { definePage, PageError } from "../page";
import { renderPage, VIEWS } from "../render";
import { pagingOf, parseListPage } from "./list-page";

/** Most Sources one status poll asks about (a page holds at most 100). */
const MAX_STATUS_IDS = 100;

function row(source: Source) {
  const { attributes } = source;
  return {
    id: source.id,
    name: attributes.name,
    type: attributes.deployment.type,
    subdomains: attributes.deployment.service_subdomains.join(", "),
    enabled: attributes.enabled,
    status: attributes.deployment_status,
    dateDeployed: attributes.date_deployed,
  };
}

/** A deployment field's value as text; a presence flag says whether its write-only value is stored. */
function describeValue(field: string, value: unknown): string {
  if (PRESENCE_FLAG_FIELDS.has(field)) return value === true ? "set" : "not set";
  if (value === null || value === undefined) return "-";
  if (Array.isArray(value)) return value.length ? value.join(", ") : "(none)";
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>);
    // A map of rendering parameters: its values are strings, numbers or booleans.
    return entries.length ? entries.map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`).join(", ") : "(none)";
  }
  return typeof value === "string" ? value : JSON.stringify(value);
}

export function defineSourcePages(app: FastifyInstance): void {
  const access = VIEWS.sources.access;

  definePage(app, {
    method: "GET",
    url: "/sources",
    access,
    handler({ request, reply, user, account }) {
      const list = parseListPage(sourceListSpec, request.query);
      const { rows, total } = request.server.sourceStore.page(account.id, list.query);
      const sources = rows.map((stored) => row(sourceResource(stored, null)));
      return renderPage(
        reply,
        "sources",
        { title: "Sources", user, active: "sources", scripts: ["sources-status.js"] },
        {
          sources,
          total,
          ...pagingOf(list, total),
          parameters: list.parameters,
          issues: list.issues,
          textFilters: Object.entries(sourceListSpec.filters)
            .filter(([, kind]) => kind.kind === "substring" || kind.kind === "substring-any")
            .map(([field]) => field),
          types: SOURCE_TYPES,
          sorts: sourceListSpec.sorts,
        },
      );
    },
  });

  definePage(app, {
    method: "GET",
    url: "/sources/status",
    access,
    handler({ request, reply, account }) {
      const raw = (request.query as Record<string, unknown>).id;
      const ids = (Array.isArray(raw) ? raw : [raw]).filter((id): id is string => typeof id === "string").slice(0, MAX_STATUS_IDS);
      const statuses = ids.flatMap((id) => {
        const stored = request.server.sourceStore.find(account.id, id);
        return stored ? [{ id, status: stored.deployment_status, dateDeployed: stored.date_deployed }] : [];
      });
      return reply.type("application/json").send({ sources: statuses });
    },
  });

  definePage(app, {
    method: "GET",
    url: "/sources/:id",
    access,
    handler({ request, reply, user, account }) {
      const id = (request.params as { id: string }).id;
      const stored = request.server.sourceStore.find(account.id, id);
      if (!stored) throw new PageError(404, "No Source of this account has that id.");
      const source = sourceResource(stored, null);
      const deployment = Object.entries(source.attributes.deployment)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([field, value]) => ({ field, value: describeValue(field, value), isFlag: PRESENCE_FLAG_FIELDS.has(field) }));
      return renderPage(
        reply,
        "source",
        { title: source.attributes.name, user, active: "sources", scripts: ["sources-status.js"] },
        {
          source: row(source),
          secureUrls: source.attributes.deployment.secure_url_enabled === true,
          deployment,
        },
      );
    },
  });
}
