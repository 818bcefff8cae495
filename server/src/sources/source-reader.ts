// Sources as returned by GET and lists, as JSON text, through a cache of rendered resources: those
// are the hot paths, and a stored Source changes only when it is written.
//
// An entry is valid while this database connection has changed nothing at all (SQLite's
// total_changes() counts every write of the connection, whatever code made it) and until its
// Source's status or date can change by itself (the end of a deployment in progress). Writes by
// other processes are not seen: one server per database file; the CLI's account and key commands
// never touch Sources.
import type { ParsedListQuery } from "@asset-delivery/sdk";
import type { Database } from "../store/database";
import type { SourceRow, SourceStore } from "./source-store";
import { sourceResourceJson } from "./source-view";

interface Rendered {
  accountId: string;
  json: string;
  /** Milliseconds: the entry must not be used from then on. */
  validUntil: number;
}

const MAX_ENTRIES = 10_000;

export type SourceReader = ReturnType<typeof createSourceReader>;

export function createSourceReader(db: Database, store: SourceStore, now: () => number) {
  const totalChanges = db.prepare<[], number>("SELECT total_changes()").pluck();
  const rendered = new Map<string, Rendered>();
  let changesSeen = -1;

  /** The entries still valid for the database as it is now. */
  function entries(): Map<string, Rendered> {
    const changes = totalChanges.get()!;
    if (changes !== changesSeen) {
      rendered.clear();
      changesSeen = changes;
    }
    return rendered;
  }

  function render(row: SourceRow, readAt: number): Rendered {
    const entry = {
      accountId: row.account_id,
      json: sourceResourceJson(row, store.openToken(row)),
      validUntil: row.deploy_ready_at > readAt ? row.deploy_ready_at : Infinity,
    };
    if (rendered.size >= MAX_ENTRIES) rendered.delete(rendered.keys().next().value!);
    rendered.set(row.id, entry);
    return entry;
  }

  function fresh(cache: Map<string, Rendered>, id: string, at: number): Rendered | undefined {
    const entry = cache.get(id);
    return entry && at < entry.validUntil ? entry : undefined;
  }

  return {
    /** The Source's resource as JSON text; undefined when it is not this account's. */
    one(accountId: string, id: string): string | undefined {
      const cache = entries();
      const at = now();
      const cached = fresh(cache, id, at);
      if (cached) return cached.accountId === accountId ? cached.json : undefined;
      const row = store.find(accountId, id);
      return row && render(row, at).json;
    },

    /** A list page's resources as JSON text, in order, and the number of matching Sources. */
    page(accountId: string, query: ParsedListQuery): { resources: string[]; total: number } {
      const { ids, total } = store.page(accountId, query);
      const cache = entries();
      const at = now();
      const json = new Map<string, string>();
      for (const id of ids) {
        const cached = fresh(cache, id, at);
        if (cached) json.set(id, cached.json);
      }
      for (const row of store.rows(ids.filter((id) => !json.has(id)))) json.set(row.id, render(row, at).json);
      return { resources: ids.map((id) => json.get(id)!), total };
    },
  };
}
