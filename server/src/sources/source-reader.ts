// Sources as returned by GET and lists, through caches of rendered resources and of
// list pages: those are the hot paths, and stored Sources change only when they are written.
//
// An entry is valid while nothing at all was written through this database connection (the
// change counter counts every write, whatever code made it) and until a status or date it shows
// can change by itself (the end of a deployment in progress). Writes by other
// processes are not seen: one server per database file; the CLI's account and key commands never
// touch Sources.
import type { ParsedListQuery, Source } from "@asset-delivery/sdk";
import { changeCounter } from "../store/change-counter";
import type { Database } from "../store/database";
import type { SourceRow, SourceStore } from "./source-store";
import { sourceResource } from "./source-view";

interface Rendered {
  accountId: string;
  resource: Source;
  /** Milliseconds: the entry must not be used from then on. */
  validUntil: number;
}

interface Page {
  ids: string[];
  total: number;
  validUntil: number;
}

const MAX_ENTRIES = 10_000;
const MAX_PAGES = 1_000;

export type SourceReader = ReturnType<typeof createSourceReader>;

export function createSourceReader(db: Database, store: SourceStore, now: () => number) {
  const changes = changeCounter(db);
  const rendered = new Map<string, Rendered>();
  // Ids and totals of list pages, by account and query.
  const pages = new Map<string, Page>();
  let changesSeen = -1;

  /** Drops every entry if the database changed since they were made. */
  function forgetIfChanged(): void {
    const count = changes();
    if (count !== changesSeen) {
      rendered.clear();
      pages.clear();
      changesSeen = count;
    }
  }

  function pageOf(accountId: string, query: ParsedListQuery, at: number): Page {
    const key = `${accountId}\n${JSON.stringify(query)}`;
    const cached = pages.get(key);
    if (cached && at < cached.validUntil) return cached;
    const page = { ...store.page(accountId, query), validUntil: store.nextDeploymentChange(accountId, at) ?? Infinity };
    if (pages.size >= MAX_PAGES) pages.delete(pages.keys().next().value!);
    pages.set(key, page);
    return page;
  }

  function render(row: SourceRow, readAt: number): Rendered {
    const entry = {
      accountId: row.account_id,
      resource: sourceResource(row, store.openToken(row)),
      validUntil: row.deploy_starts_at > readAt ? row.deploy_starts_at : row.deploy_ready_at > readAt ? row.deploy_ready_at : Infinity,
    };
    if (rendered.size >= MAX_ENTRIES) rendered.delete(rendered.keys().next().value!);
    rendered.set(row.id, entry);
    return entry;
  }

  function fresh(id: string, at: number): Rendered | undefined {
    const entry = rendered.get(id);
    return entry && at < entry.validUntil ? entry : undefined;
  }

  return {
    /** The Source's resource; undefined when it is not this account's. */
    one(accountId: string, id: string): Source | undefined {
      forgetIfChanged();
      const at = now();
      const cached = fresh(id, at);
      if (cached) return cached.accountId === accountId ? cached.resource : undefined;
      const row = store.find(accountId, id);
      return row && render(row, at).resource;
    },

    /** A list page's resources, in order, and the number of matching Sources. */
    page(accountId: string, query: ParsedListQuery): { resources: Source[]; total: number } {
      forgetIfChanged();
      const at = now();
      const { ids, total } = pageOf(accountId, query, at);
      const resources = new Map<string, Source>();
      for (const id of ids) {
        const cached = fresh(id, at);
        if (cached) resources.set(id, cached.resource);
      }
      for (const row of store.rows(ids.filter((id) => !resources.has(id)))) resources.set(row.id, render(row, at).resource);
      return { resources: ids.map((id) => resources.get(id)!), total };
    },
  };
}
