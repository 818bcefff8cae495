// Video jobs as stored: the queue the worker takes from and the state the API reports.
import type { VideoCreateRequest } from "@asset-delivery/sdk";
import type { Database } from "../store/database";
import { newId } from "../store/random";

export type JobStatus = "preparing" | "ready" | "errored";

export interface StoredJob {
  id: string;
  accountId: string;
  url: string;
  prompt: string;
  model: VideoCreateRequest["model"];
  duration: number;
  status: JobStatus;
  attempts: number;
  error: { code: number; message: string } | null;
  videoPath: string | null;
  /** Milliseconds. */
  createdAt: number;
  updatedAt: number | null;
}

interface JobRow {
  id: string;
  account_id: string;
  url: string;
  prompt: string;
  model: StoredJob["model"];
  duration: number;
  status: JobStatus;
  attempts: number;
  error_code: number | null;
  error_message: string | null;
  video_path: string | null;
  created_at: number;
  updated_at: number | null;
}

function toJob(row: JobRow): StoredJob {
  return {
    id: row.id,
    accountId: row.account_id,
    url: row.url,
    prompt: row.prompt,
    model: row.model,
    duration: row.duration,
    status: row.status,
    attempts: row.attempts,
    error: row.error_code === null ? null : { code: row.error_code, message: row.error_message ?? "" },
    videoPath: row.video_path,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export type JobStore = ReturnType<typeof createJobStore>;

export function createJobStore(db: Database, now: () => number) {
  const insert = db.prepare(`
    INSERT INTO video_jobs (id, account_id, url, prompt, model, duration, status, created_at)
    VALUES (@id, @accountId, @url, @prompt, @model, @duration, 'preparing', @createdAt)`);
  const byId = db.prepare<[string], JobRow>("SELECT * FROM video_jobs WHERE id = ?");
  const latestOfAccount = db.prepare<[string, number], JobRow>(
    "SELECT * FROM video_jobs WHERE account_id = ? ORDER BY created_at DESC, rowid DESC LIMIT ?",
  );
  // The oldest few waiting jobs of each account: what the fair queue chooses from, bounded however
  // many jobs one account has queued.
  const waiting = db.prepare<[number], JobRow>(`
    SELECT * FROM (
      SELECT *, rowid AS seq, row_number() OVER (PARTITION BY account_id ORDER BY created_at, rowid) AS place
      FROM video_jobs WHERE status = 'preparing'
    ) WHERE place <= ? ORDER BY created_at, seq`);
  const countAttempt = db.prepare("UPDATE video_jobs SET attempts = attempts + 1 WHERE id = ? AND status = 'preparing'");
  const markReady = db.prepare(
    "UPDATE video_jobs SET status = 'ready', video_path = ?, updated_at = ? WHERE id = ? AND status = 'preparing'",
  );
  const markErrored = db.prepare(
    "UPDATE video_jobs SET status = 'errored', error_code = ?, error_message = ?, updated_at = ? WHERE id = ? AND status = 'preparing'",
  );

  return {
    create(accountId: string, request: VideoCreateRequest): StoredJob {
      const id = newId();
      insert.run({ id, accountId, ...request, createdAt: now() });
      return toJob(byId.get(id)!);
    },
    /** The job if it belongs to the account: another account's job does not exist for the caller. */
    findForAccount(accountId: string, id: string): StoredJob | undefined {
      const row = byId.get(id);
      return row && row.account_id === accountId ? toJob(row) : undefined;
    },
    /** The account's newest jobs, at most `limit` (the dashboard's list). */
    latestOfAccount(accountId: string, limit: number): StoredJob[] {
      return latestOfAccount.all(accountId, limit).map(toJob);
    },
    find(id: string): StoredJob | undefined {
      const row = byId.get(id);
      return row && toJob(row);
    },
    /** Jobs still to render, oldest first: at most `perAccount` of each account. */
    waiting(perAccount: number): StoredJob[] {
      return waiting.all(perAccount).map(toJob);
    },
    startAttempt(id: string): void {
      countAttempt.run(id);
    },
    ready(id: string, videoPath: string): void {
      markReady.run(videoPath, now(), id);
    },
    errored(id: string, code: number, message: string): void {
      markErrored.run(code, message, now(), id);
    },
  };
}
