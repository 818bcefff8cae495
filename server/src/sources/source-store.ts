// Persistence of Sources: one row per Source (the returned deployment as JSON, write-only values
// and the secure URL token encrypted), plus the hostname index that keeps subdomains and custom
// domains unique across all accounts. Every statement is prepared once (a list's, once per distinct
// list query, below).
import { LRUCache } from "lru-cache";
import { fieldIssue, HOSTNAME_FIELDS, type FieldIssue, type ParsedListQuery } from "@asset-delivery/sdk";
import type BetterSqlite3 from "better-sqlite3";
import type { Database } from "../store/database";
import type { SecretBox } from "../store/secret-box";
import { DATE_DEPLOYED_SQL, DEPLOYMENT_STATUS_SQL, type DeploymentStatus } from "./deployment-status";
import { boundValue, listSql } from "./list-sql";
import type { PublicDeployment, SourceRecord } from "./source-record";

/** The stored columns of a Source row, as read for an update. */
interface StoredRow {
  id: string;
  account_id: string;
  name: string;
  enabled: 0 | 1;
  deployment: string;
  secrets: string;
  secure_url_token: string | null;
  /** Milliseconds: when the latest deployment starts. */
  deploy_starts_at: number;
  /** Milliseconds: until then the status and date may still change by themselves. */
  deploy_ready_at: number;
  previous_deployed_at: number | null;
}

/** A Source row as read for a response: what the view needs, status and date computed for the current time. */
export interface SourceRow extends Pick<StoredRow, "id" | "name" | "enabled" | "deployment" | "secrets" | "secure_url_token"> {
  deployment_status: DeploymentStatus;
  date_deployed: number | null;
}

const RESPONSE_COLUMNS = `id, name, enabled, deployment, secrets, secure_url_token,
  ${DEPLOYMENT_STATUS_SQL} AS deployment_status, ${DATE_DEPLOYED_SQL} AS date_deployed`;

// A list's two statements differ by its filters and sorts. Compiling them takes twice as long as
// running them (290 µs against 130 µs, measured on bench/server.mjs's list query), so the most
// recently used are kept compiled, at most this many. A statement holds no data: no write makes one stale.
const LIST_STATEMENTS_KEPT = 256;

interface ListStatements {
  count: BetterSqlite3.Statement<[Record<string, unknown>], number>;
  page: BetterSqlite3.Statement<[Record<string, unknown>], SourceRow>;
}

export type SourceStore = ReturnType<typeof createSourceStore>;

/**
 * One encrypted value the database holds, with the associated data it was sealed with, or
 * undefined when it holds none (or is new: no sources table yet). The server tries its key on it
 * before it starts (store/secret-key.ts).
 */
export function sealedSample(db: Database): { sealed: string; associatedData: string } | undefined {
  if (db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sources'").get() === undefined) return undefined;
  const token = db
    .prepare<[], { id: string; sealed: string }>(
      "SELECT id, secure_url_token AS sealed FROM sources WHERE secure_url_token IS NOT NULL LIMIT 1",
    )
    .get();
  if (token) return { sealed: token.sealed, associatedData: `${token.id}:secure_url_token` };
  const row = db.prepare<[], { id: string; secrets: string }>("SELECT id, secrets FROM sources WHERE secrets <> '{}' LIMIT 1").get();
  const [name, sealed] = Object.entries(row ? (JSON.parse(row.secrets) as Record<string, string>) : {})[0] ?? [];
  return row && name !== undefined && sealed !== undefined ? { sealed, associatedData: `${row.id}:${name}` } : undefined;
}

export function createSourceStore(db: Database, box: SecretBox, now: () => number) {
  const insert = db.prepare(`INSERT INTO sources
    (id, account_id, name, enabled, deployment, secrets, secure_url_token, deploy_starts_at, deploy_ready_at, previous_deployed_at, created_at, updated_at)
    VALUES (@id, @account_id, @name, @enabled, @deployment, @secrets, @secure_url_token, @deploy_starts_at, @deploy_ready_at, @previous_deployed_at, @now, @now)`);
  const update = db.prepare(`UPDATE sources SET name = @name, enabled = @enabled, deployment = @deployment, secrets = @secrets,
    secure_url_token = @secure_url_token, deploy_starts_at = @deploy_starts_at, deploy_ready_at = @deploy_ready_at, previous_deployed_at = @previous_deployed_at, updated_at = @now
    WHERE id = @id AND account_id = @account_id`);
  const stored = db.prepare<[{ account: string; id: string }], StoredRow>("SELECT * FROM sources WHERE account_id = @account AND id = @id");
  const forResponse = db.prepare<[{ account: string; id: string; now: number }], SourceRow>(
    `SELECT ${RESPONSE_COLUMNS} FROM sources WHERE id = @id AND account_id = @account`,
  );
  const hostnameOwner = db
    .prepare<[{ kind: string; name: string; id: string }], string>(
      "SELECT source_id FROM source_hostnames WHERE kind = @kind AND name = @name AND source_id <> @id",
    )
    .pluck();
  const dropHostnames = db.prepare("DELETE FROM source_hostnames WHERE source_id = ?");
  const addHostname = db.prepare("INSERT INTO source_hostnames (kind, name, source_id) VALUES (?, ?, ?)");
  const listStatements = new LRUCache<string, ListStatements, { where: string; orderBy: string }>({
    max: LIST_STATEMENTS_KEPT,
    memoMethod: (_key, _stale, { context: { where, orderBy } }) => ({
      count: db.prepare<[Record<string, unknown>], number>(`SELECT count(*) FROM sources WHERE ${where}`).pluck(),
      // The page is chosen on ids (sorting whole rows would copy every deployment through SQLite's
      // sorter); only its rows are then read in full and put in order again.
      page: db.prepare<[Record<string, unknown>], SourceRow>(
        `SELECT ${RESPONSE_COLUMNS} FROM sources WHERE id IN
          (SELECT id FROM sources WHERE ${where} ORDER BY ${orderBy} LIMIT ${boundValue("limit")} OFFSET ${boundValue("offset")})
        ORDER BY ${orderBy}`,
      ),
    }),
  });

  /** A list query's compiled statements and the values they are run with. */
  function listQuery(accountId: string, query: ParsedListQuery) {
    const { where, orderBy, params } = listSql(query);
    const statements = listStatements.memo(`${where}\n${orderBy}`, { context: { where, orderBy } });
    const values = { ...params, account: accountId, now: now(), limit: query.page.size, offset: query.page.number * query.page.size };
    return { statements, values };
  }

  function sealSecrets(id: string, secrets: Record<string, unknown>): string {
    const sealed: Record<string, string> = {};
    for (const [name, value] of Object.entries(secrets)) sealed[name] = box.seal(JSON.stringify(value), `${id}:${name}`);
    return JSON.stringify(sealed);
  }

  function toParams(record: SourceRecord) {
    return {
      id: record.id,
      account_id: record.accountId,
      name: record.name,
      enabled: record.enabled ? 1 : 0,
      deployment: JSON.stringify(record.deployment),
      secrets: sealSecrets(record.id, record.secrets),
      secure_url_token: record.secureUrlToken === null ? null : box.seal(record.secureUrlToken, `${record.id}:secure_url_token`),
      deploy_starts_at: record.deployStartsAt,
      deploy_ready_at: record.deployReadyAt,
      previous_deployed_at: record.previousDeployedAt,
      now: now(),
    };
  }

  function writeHostnames(record: SourceRecord): void {
    dropHostnames.run(record.id);
    for (const kind of HOSTNAME_FIELDS) {
      for (const name of (record.deployment[kind] as string[] | undefined) ?? []) addHostname.run(kind, name.toLowerCase(), record.id);
    }
  }

  return {
    /**
     * Hostnames of the deployment already used by another Source (of any account). The issue names
     * the field and the value, never the other Source.
     */
    hostnameConflicts(id: string, deployment: PublicDeployment): FieldIssue[] {
      const issues: FieldIssue[] = [];
      for (const kind of HOSTNAME_FIELDS) {
        ((deployment[kind] as string[] | undefined) ?? []).forEach((name, index) => {
          if (hostnameOwner.get({ kind, name: name.toLowerCase(), id }) === undefined) return;
          const segments = ["data", "attributes", "deployment", kind, index];
          issues.push(
            fieldIssue(
              segments,
              `"${name}" is already used by another Source (${kind} are unique across all Sources, compared case-insensitively)`,
            ),
          );
        });
      }
      return issues;
    },
    /** Inserts a new Source. Call inside a transaction, after hostnameConflicts found none. */
    insert(record: SourceRecord): void {
      insert.run(toParams(record));
      writeHostnames(record);
    },
    /** Writes a changed Source. Call inside a transaction, after hostnameConflicts found none. */
    update(record: SourceRecord): void {
      update.run(toParams(record));
      writeHostnames(record);
    },
    /** The Source with its secrets decrypted, for an update; undefined if not this account's. */
    load(accountId: string, id: string): SourceRecord | undefined {
      const row = stored.get({ account: accountId, id });
      if (!row) return undefined;
      const secrets: Record<string, unknown> = {};
      for (const [name, sealed] of Object.entries(JSON.parse(row.secrets) as Record<string, string>)) {
        secrets[name] = JSON.parse(box.open(sealed, `${id}:${name}`));
      }
      return {
        id: row.id,
        accountId: row.account_id,
        name: row.name,
        enabled: row.enabled === 1,
        deployment: JSON.parse(row.deployment) as PublicDeployment,
        secrets,
        secureUrlToken: row.secure_url_token === null ? null : box.open(row.secure_url_token, `${id}:secure_url_token`),
        deployStartsAt: row.deploy_starts_at,
        deployReadyAt: row.deploy_ready_at,
        previousDeployedAt: row.previous_deployed_at,
      };
    },
    find(accountId: string, id: string): SourceRow | undefined {
      return forResponse.get({ account: accountId, id, now: now() });
    },
    /** A list page's rows, in order, and the number of Sources matching the filters. */
    page(accountId: string, query: ParsedListQuery): { rows: SourceRow[]; total: number } {
      const { statements, values } = listQuery(accountId, query);
      const total = statements.count.get(values)!;
      return { rows: statements.page.all(values), total };
    },
    /** How SQLite runs a list page's two statements (EXPLAIN QUERY PLAN): the tests' proof that indexes serve them. */
    listPlans(accountId: string, query: ParsedListQuery): { count: string[]; page: string[] } {
      const { statements, values } = listQuery(accountId, query);
      const plan = (statement: BetterSqlite3.Statement) =>
        db
          .prepare<[Record<string, unknown>], { detail: string }>(`EXPLAIN QUERY PLAN ${statement.source}`)
          .all(values)
          .map((row) => row.detail);
      return { count: plan(statements.count), page: plan(statements.page) };
    },
    /** Decrypts the secure URL token of a row read for a response. */
    openToken(row: SourceRow): string | null {
      return row.secure_url_token === null ? null : box.open(row.secure_url_token, `${row.id}:secure_url_token`);
    },
  };
}
