// Accounts: the tenants of the service. Every Source, key, report and job belongs to one.
import type { ReportType } from "@asset-delivery/sdk";
import type { Database } from "../store/database";
import { newId } from "../store/random";

export const PLANS = ["free", "paid", "enterprise"] as const;
export type Plan = (typeof PLANS)[number];

export interface Account {
  id: string;
  name: string;
  plan: Plan;
  videoEnabled: boolean;
  /** Report types turned off for this account. */
  disabledReports: ReportType[];
  /** Unix seconds. */
  createdAt: number;
}

interface AccountRow {
  id: string;
  name: string;
  plan: Plan;
  video_enabled: 0 | 1;
  disabled_reports: string;
  created_at: number;
}

function toAccount(row: AccountRow): Account {
  return {
    id: row.id,
    name: row.name,
    plan: row.plan,
    videoEnabled: row.video_enabled === 1,
    disabledReports: JSON.parse(row.disabled_reports) as ReportType[],
    createdAt: row.created_at,
  };
}

export type AccountStore = ReturnType<typeof createAccountStore>;

export function createAccountStore(db: Database, now: () => number = Date.now) {
  const insert = db.prepare(
    "INSERT INTO accounts (id, name, plan, video_enabled, disabled_reports, created_at) VALUES (@id, @name, @plan, @video_enabled, @disabled_reports, @created_at)",
  );
  const byName = db.prepare<[string], AccountRow>("SELECT * FROM accounts WHERE name = ?");
  const byId = db.prepare<[string], AccountRow>("SELECT * FROM accounts WHERE id = ?");
  const all = db.prepare<[], AccountRow>("SELECT * FROM accounts ORDER BY created_at, name");
  const update = db.prepare(
    "UPDATE accounts SET plan = @plan, video_enabled = @video_enabled, disabled_reports = @disabled_reports WHERE id = @id",
  );

  return {
    create(input: { name: string; plan: Plan; videoEnabled: boolean; disabledReports?: ReportType[] }): Account {
      const row: AccountRow = {
        id: newId(),
        name: input.name,
        plan: input.plan,
        video_enabled: input.videoEnabled ? 1 : 0,
        disabled_reports: JSON.stringify(input.disabledReports ?? []),
        created_at: Math.floor(now() / 1000),
      };
      insert.run(row);
      return toAccount(row);
    },
    /** Names compare case-insensitively, as the UNIQUE constraint does. */
    findByName(name: string): Account | undefined {
      const row = byName.get(name);
      return row && toAccount(row);
    },
    findById(id: string): Account | undefined {
      const row = byId.get(id);
      return row && toAccount(row);
    },
    list(): Account[] {
      return all.all().map(toAccount);
    },
    /** Changes the plan, video access or disabled reports of an existing account. */
    update(account: Account): void {
      update.run({
        id: account.id,
        plan: account.plan,
        video_enabled: account.videoEnabled ? 1 : 0,
        disabled_reports: JSON.stringify(account.disabledReports),
      });
    },
  };
}
