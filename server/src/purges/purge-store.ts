// Where purges are recorded, and which of an account's Sources a URL's host belongs to.
import { randomUUID } from "node:crypto";
import type { Database } from "../store/database";

// Records older than this are dropped as new ones arrive: the table stays bounded.
export const PURGE_RECORD_DAYS = 90;
const RECORD_MS = PURGE_RECORD_DAYS * 86_400_000;

export interface PurgeRecord {
  id: string;
  accountId: string;
  sourceId: string;
  url: string;
  subImage: boolean;
  keyId: string;
  /** Milliseconds. */
  createdAt: number;
}

interface PurgeRow {
  id: string;
  account_id: string;
  source_id: string;
  url: string;
  sub_image: number;
  key_id: string;
  created_at: number;
}

const toRecord = (row: PurgeRow): PurgeRecord => ({
  id: row.id,
  accountId: row.account_id,
  sourceId: row.source_id,
  url: row.url,
  subImage: row.sub_image === 1,
  keyId: row.key_id,
  createdAt: row.created_at,
});

export type PurgeStore = ReturnType<typeof createPurgeStore>;

export function createPurgeStore(db: Database) {
  const sourceByHostname = db
    .prepare<[string, string, string], string>(
      `SELECT s.id FROM source_hostnames h JOIN sources s ON s.id = h.source_id
     WHERE h.kind = ? AND h.name = ? AND s.account_id = ?`,
    )
    .pluck();
  const accountSource = db.prepare<[string, string], string>("SELECT id FROM sources WHERE id = ? AND account_id = ?").pluck();
  const latestOf = db.prepare<[string, string], number>("SELECT max(created_at) FROM purges WHERE account_id = ? AND url = ?").pluck();
  const insert = db.prepare(
    "INSERT INTO purges (id, account_id, source_id, url, sub_image, key_id, created_at) VALUES (@id, @account_id, @source_id, @url, @sub_image, @key_id, @created_at)",
  );
  const prune = db.prepare("DELETE FROM purges WHERE created_at < ?");
  const bySource = db.prepare<[string], PurgeRow>("SELECT * FROM purges WHERE source_id = ? ORDER BY created_at, rowid");
  const byAccount = db.prepare<[string], PurgeRow>("SELECT * FROM purges WHERE account_id = ? ORDER BY created_at, rowid");

  return {
    /** The account's Source serving `hostname` (lower case) as a service subdomain label or a custom domain. */
    sourceOfHostname(accountId: string, kind: "service_subdomains" | "custom_domains", hostname: string): string | undefined {
      return sourceByHostname.get(kind, hostname, accountId);
    },
    isAccountSource(accountId: string, sourceId: string): boolean {
      return accountSource.get(sourceId, accountId) !== undefined;
    },
    /** When the account last purged `url` (milliseconds), if within the records kept. */
    lastPurgedAt(accountId: string, url: string): number | undefined {
      return latestOf.get(accountId, url) ?? undefined;
    },
    /** Records an accepted purge; returns its id. */
    record(input: Omit<PurgeRecord, "id">): string {
      const id = randomUUID();
      db.transaction(() => {
        prune.run(input.createdAt - RECORD_MS);
        insert.run({
          id,
          account_id: input.accountId,
          source_id: input.sourceId,
          url: input.url,
          sub_image: input.subImage ? 1 : 0,
          key_id: input.keyId,
          created_at: input.createdAt,
        });
      })();
      return id;
    },
    listBySource(sourceId: string): PurgeRecord[] {
      return bySource.all(sourceId).map(toRecord);
    },
    listByAccount(accountId: string): PurgeRecord[] {
      return byAccount.all(accountId).map(toRecord);
    },
  };
}
