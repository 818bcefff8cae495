// Tables of the server core: accounts, their API keys and their Sources. Other modules (reports,
// videos) own their tables and migrations; app.ts applies the core ones first.
import { RATE_LIMITS, refilledTokens, type BucketState } from "@asset-delivery/sdk";
import type { Migration } from "./database";

export const coreMigrations: Migration[] = [
  {
    id: "core-001-accounts-and-keys",
    up(db) {
      db.exec(`
        CREATE TABLE accounts (
          id               TEXT PRIMARY KEY,
          name             TEXT NOT NULL UNIQUE COLLATE NOCASE,
          plan             TEXT NOT NULL CHECK (plan IN ('free', 'paid', 'enterprise')),
          video_enabled    INTEGER NOT NULL DEFAULT 0 CHECK (video_enabled IN (0, 1)),
          -- JSON array of the report types turned off for this account.
          disabled_reports TEXT NOT NULL DEFAULT '[]' CHECK (json_type(disabled_reports) = 'array'),
          created_at       INTEGER NOT NULL
        );
        CREATE TABLE api_keys (
          id          TEXT PRIMARY KEY,
          account_id  TEXT NOT NULL REFERENCES accounts (id),
          user_name   TEXT NOT NULL,
          permissions TEXT NOT NULL CHECK (json_type(permissions) = 'array'),
          -- SHA-256 of the key, hex; the plaintext is never stored.
          key_hash    TEXT NOT NULL UNIQUE,
          created_at  INTEGER NOT NULL,
          revoked_at  INTEGER
        );
        CREATE INDEX api_keys_by_account ON api_keys (account_id);
      `);
    },
  },
  {
    id: "core-002-sources",
    up(db) {
      db.exec(`
        CREATE TABLE sources (
          id                   TEXT PRIMARY KEY,
          account_id           TEXT NOT NULL REFERENCES accounts (id),
          name                 TEXT NOT NULL,
          enabled              INTEGER NOT NULL CHECK (enabled IN (0, 1)),
          -- The deployment as returned, minus computed fields; write-only values live in secrets.
          deployment           TEXT NOT NULL CHECK (json_type(deployment) = 'object'),
          -- JSON object: write-only field name -> AES-256-GCM ciphertext of its value.
          secrets              TEXT NOT NULL DEFAULT '{}' CHECK (json_type(secrets) = 'object'),
          -- Ciphertext; NULL while deployment.secure_url_enabled is false.
          secure_url_token     TEXT,
          -- Milliseconds: when the latest deployment completes. The status is derived from it at
          -- read time, so a deployment in progress survives a restart.
          deploy_ready_at      INTEGER NOT NULL,
          -- Unix seconds of the deployment completed before the latest one, NULL if none.
          previous_deployed_at INTEGER,
          created_at           INTEGER NOT NULL,
          updated_at           INTEGER NOT NULL
        );
        CREATE INDEX sources_by_account ON sources (account_id);

        -- Subdomains and custom domains are unique across ALL accounts, case-insensitively.
        CREATE TABLE source_hostnames (
          kind      TEXT NOT NULL CHECK (kind IN ('service_subdomains', 'custom_domains')),
          name      TEXT NOT NULL CHECK (name = lower(name)),
          source_id TEXT NOT NULL REFERENCES sources (id) ON DELETE CASCADE,
          PRIMARY KEY (kind, name)
        ) WITHOUT ROWID;
        CREATE INDEX source_hostnames_by_source ON source_hostnames (source_id);
      `);
    },
  },
  {
    // The type filter (an exact match, the most common one) by index instead of parsing every
    // row's deployment JSON. The expression must stay exactly the one list-sql.ts writes.
    id: "core-003-sources-type-index",
    up(db) {
      db.exec(`CREATE INDEX sources_by_type ON sources (account_id, json_extract(deployment, '$."type"'))`);
    },
  },
  {
    // Lists sorted by name, with or without the type filter, read in order from an index that
    // also covers the name filter and the id tiebreak: no row is read until the page is known.
    // The expressions must stay exactly the ones list-sql.ts writes.
    id: "core-004-sources-name-indexes",
    up(db) {
      db.exec(`
        CREATE INDEX sources_by_name ON sources (account_id, name COLLATE NOCASE, id);
        CREATE INDEX sources_by_type_name ON sources (account_id, json_extract(deployment, '$."type"'), name COLLATE NOCASE, id);
        -- Its prefix serves every query sources_by_type did.
        DROP INDEX sources_by_type;
      `);
    },
  },
  {
    // The rate-limit buckets that must survive a restart (server/src/http/rate-limit.ts): the
    // hourly create and update windows. `caller` is what the limit was counted per: the API key (see core-007).
    id: "core-005-rate-limit-buckets",
    up(db) {
      db.exec(`
        CREATE TABLE rate_limit_buckets (
          caller         TEXT NOT NULL,
          endpoint_class TEXT NOT NULL,
          tokens         REAL NOT NULL CHECK (tokens >= 0),
          updated_at     INTEGER NOT NULL,
          PRIMARY KEY (caller, endpoint_class)
        ) WITHOUT ROWID;
      `);
    },
  },
  {
    // A change's deployment starts after a lag (like the real service's): until then reads still
    // show the deployment before it. Milliseconds; 0 for rows written before: started long ago.
    id: "core-006-sources-deploy-starts-at",
    up(db) {
      db.exec("ALTER TABLE sources ADD COLUMN deploy_starts_at INTEGER NOT NULL DEFAULT 0");
    },
  },
  {
    // Rate limits are counted per account (as on the real service), no longer per API key: the
    // stored buckets are keyed by account. The buckets of one account's keys merge into one that
    // has spent what they spent together, so a restart onto this version hands out no budget.
    id: "core-007-rate-limit-buckets-per-account",
    up(db) {
      const perKey = db
        .prepare<[], { accountId: string; endpointClass: string; tokens: number; updatedAt: number }>(
          `SELECT k.account_id AS accountId, b.endpoint_class AS endpointClass, b.tokens, b.updated_at AS updatedAt
           FROM rate_limit_buckets b JOIN api_keys k ON k.id = b.caller`,
        )
        .all();
      db.exec(`
        DROP TABLE rate_limit_buckets;
        CREATE TABLE rate_limit_buckets (
          account_id     TEXT NOT NULL REFERENCES accounts (id),
          endpoint_class TEXT NOT NULL,
          tokens         REAL NOT NULL CHECK (tokens >= 0),
          updated_at     INTEGER NOT NULL,
          PRIMARY KEY (account_id, endpoint_class)
        ) WITHOUT ROWID;
      `);
      const insert = db.prepare("INSERT INTO rate_limit_buckets (account_id, endpoint_class, tokens, updated_at) VALUES (?, ?, ?, ?)");
      // A class no longer in the table is no longer limited: its buckets go.
      for (const [endpointClass, rate] of Object.entries(RATE_LIMITS)) {
        const byAccount = new Map<string, BucketState[]>();
        for (const { accountId, tokens, updatedAt } of perKey.filter((row) => row.endpointClass === endpointClass)) {
          byAccount.set(accountId, [...(byAccount.get(accountId) ?? []), { tokens, updatedAt }]);
        }
        for (const [accountId, buckets] of byAccount) {
          const merged = spentTogether(buckets, rate);
          insert.run(accountId, endpointClass, merged.tokens, merged.updatedAt);
        }
      }
    },
  },
  {
    // A key's name, as the dashboard's API keys view shows it ("" for keys made before names).
    id: "core-008-api-key-names",
    up(db) {
      db.exec("ALTER TABLE api_keys ADD COLUMN name TEXT NOT NULL DEFAULT ''");
    },
  },
];

/** One bucket that has spent what the given ones spent together, as of the latest of them. */
function spentTogether(buckets: BucketState[], rate: { limit: number; intervalMs: number }): BucketState {
  const updatedAt = Math.max(...buckets.map((bucket) => bucket.updatedAt));
  const spent = buckets.reduce((sum, bucket) => sum + rate.limit - refilledTokens(bucket, updatedAt, rate, rate.limit), 0);
  return { tokens: Math.max(0, rate.limit - spent), updatedAt };
}
