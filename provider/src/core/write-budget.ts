// A run's writes against the hourly budgets (60 Source creates and 60 updates an hour in the spec):
// what the engine's checks and diffs plan in this provider process (one per run, for the dynamic
// provider as for the plugin), what it has sent, and what the engine's log says about them:
//
// - a preview whose creates or updates exceed what the limits allow at once warns once, naming the
//   counts and the least time the limits allow, with no request sent;
// - a write waiting for the budget says so (what waits, until when, how many sent of how many);
// - a write refused by `maxWait` says how many remain and when to run again.
//
// The engine gives a provider no total and no end of a preview: each check and diff is of one
// resource. So the estimate is made when the engine ends the provider process, at the end of the
// preview (`beforeEngineShutdown`, engine/engine-guard.ts; both shells): after its last check and diff,
// while the engine still shows what the provider says. No timer, so no guess: an earlier version
// warned after a quiet moment, which a busy engine also took between two diffs, and which once
// outlasted the preview itself.
//
// The estimate itself (`hourlyEstimate`) is also what `asset-delivery import --from-terraform`
// says of the first `up` it leaves to do, in the same words.
import {
  formatDuration,
  HOURLY_CLASSES,
  intervalName,
  RateBudgetError,
  type EndpointClass,
  type PacingWait,
  type RateTable,
  type ResponseInfo,
} from "@asset-delivery/sdk";
import type { Info, Warn } from "./log";
import { PLAIN_INSTRUCTIONS, type Instructions } from "./instructions";

export type HourlyClass = "createSource" | "updateSource";

const NOUNS: Record<HourlyClass, { one: string; many: string }> = {
  createSource: { one: "create", many: "creates" },
  updateSource: { one: "update", many: "updates" },
};

/** At most one progress message this often (the first wait always says so). */
const PROGRESS_EVERY_MS = 10_000;

export interface WriteBudgetOptions {
  warn: Warn;
  info: Info;
  /** The limits the client paces itself to (false: no pacing, nothing to say). */
  limits: () => RateTable | false;
  /** What a refused write's message tells the user to do (core/instructions.ts); default the plain words. */
  instructions?: Instructions;
  now?: () => number;
}

export class WriteBudget {
  private readonly planned: Record<HourlyClass, number> = { createSource: 0, updateSource: 0 };
  private readonly sent: Record<HourlyClass, number> = { createSource: 0, updateSource: 0 };
  private releasesFirstPlanned = 0;
  private estimateGiven = false;
  private lastProgress = -Infinity;
  private readonly now: () => number;

  constructor(private readonly options: WriteBudgetOptions) {
    this.now = options.now ?? Date.now;
  }

  /** A check: a resource with no earlier inputs is a create. */
  checked(isNew: boolean): void {
    if (isNew) this.planned.createSource++;
  }

  /** A diff's outcome: a change is an update, a replacement a create. */
  diffed(changes: boolean, replaces: boolean): void {
    if (replaces) this.planned.createSource++;
    else if (changes) this.planned.updateSource++;
  }

  /** The client's onResponse: counts the writes the server took. */
  readonly onResponse = (info: ResponseInfo): void => {
    if (isHourly(info.endpointClass) && info.status !== undefined && info.status < 300) this.sent[info.endpointClass]++;
  };

  /** The client's onPacingWait: a progress message, at most one each PROGRESS_EVERY_MS. */
  readonly onPacingWait = (wait: PacingWait): void => {
    const endpointClass = wait.endpointClass;
    if (!isHourly(endpointClass)) return;
    const now = this.now();
    if (now - this.lastProgress < PROGRESS_EVERY_MS) return;
    this.lastProgress = now;
    const limits = this.options.limits();
    const noun = NOUNS[endpointClass].many;
    const rate = limits ? ` (${limits[endpointClass].limit} per ${intervalName(limits[endpointClass].intervalMs)})` : "";
    // The engine asks for the next writes only as workers free up: the total is not known here.
    void this.options.info(
      `waiting for the hourly ${NOUNS[endpointClass].one} budget${rate}: ${this.sent[endpointClass]} ${noun} sent, ` +
        `${wait.waiting} waiting; the next at ${clockTime(wait.until, true)}`,
    );
  };

  /** A write the budget refused under maxWait, as the user reads it; any other error as it is. */
  explain(error: unknown): unknown {
    if (!(error instanceof RateBudgetError) || !isHourly(error.endpointClass)) return error;
    // What the engine has asked for so far and was not sent: it asks for more only as earlier writes end.
    const remaining = Math.max(1, this.planned[error.endpointClass] - this.sent[error.endpointClass]);
    const instructions = this.options.instructions ?? PLAIN_INSTRUCTIONS;
    return new Error(
      `the hourly ${NOUNS[error.endpointClass].one} budget is spent; at least ${remaining} writes remain; ` +
        `${instructions.runAgain} after ${clockTime(error.readyAt(remaining), false)} ` +
        `(${instructions.settingName("maxWait")} ran out at ${clockTime(error.deadline, true)}; what was written is in the state)`,
    );
  }

  /**
   * The updates the run's hand-overs send besides its diffs' (one release-only PATCH per cycle of
   * Sources taking each other's host names: hand-over/), as planned when the estimate is made.
   */
  releasesFirst(count: number): void {
    this.releasesFirstPlanned = count;
  }

  /**
   * The engine is ending this provider process: the estimate of a preview whose writes exceed what
   * the limits allow at once, delivered before this resolves (nothing once writes were sent: a run
   * that writes says so as it waits).
   */
  async finalEstimate(): Promise<void> {
    const message = this.sent.createSource + this.sent.updateSource === 0 ? this.estimateMessage() : undefined;
    if (message === undefined || this.estimateGiven) return;
    this.estimateGiven = true;
    await this.options.warn(message);
  }

  private estimateMessage(): string | undefined {
    const limits = this.options.limits();
    const planned = { ...this.planned, updateSource: this.planned.updateSource + this.releasesFirstPlanned };
    return limits ? hourlyEstimate(planned, limits, this.options.instructions ?? PLAIN_INSTRUCTIONS) : undefined;
  }
}

/** "150 updates: at 60 per hour this run takes at least 1 h 31 min" (`instructions.thisRun`), or nothing within what the limits allow at once. */
export function hourlyEstimate(
  planned: Readonly<Record<HourlyClass, number>>,
  limits: RateTable,
  instructions: Instructions,
): string | undefined {
  const over = (HOURLY_CLASSES as HourlyClass[]).filter((name) => planned[name] > burst(limits, name));
  if (over.length === 0) return undefined;
  const counts = over.map((name) => `${planned[name]} ${NOUNS[name].many}`).join(" and ");
  const rates = over.map((name) => `${limits[name].limit} ${NOUNS[name].many} per ${intervalName(limits[name].intervalMs)}`);
  const least = Math.max(...over.map((name) => leastTimeMs(planned[name], limits, name)));
  const [only] = over;
  if (over.length > 1 || only === undefined)
    return `${counts}: at ${rates.join(" and ")} ${instructions.thisRun} takes at least ${formatDuration(least)}`;
  const { limit, intervalMs } = limits[only];
  return (
    `${counts}: at ${limit} per ${intervalName(intervalMs)} ${instructions.thisRun} takes at least ${formatDuration(least)} ` +
    `(${burst(limits, only)} at once, then one every ${formatDuration(intervalMs / limit)})`
  );
}

function isHourly(endpointClass: EndpointClass): endpointClass is HourlyClass {
  return (HOURLY_CLASSES as readonly EndpointClass[]).includes(endpointClass);
}

/** What the client sends at once: its bucket, one less than the limit (sdk pacing). */
function burst(limits: RateTable, name: HourlyClass): number {
  return Math.max(1, limits[name].limit - 1);
}

/** The least time `count` writes take at the limits, from a full budget: the burst at once, then one per token. */
export function leastTimeMs(count: number, limits: RateTable, name: HourlyClass): number {
  const { limit, intervalMs } = limits[name];
  return Math.max(0, count - burst(limits, name)) * (intervalMs / limit);
}

/** `HH:MM UTC` (rounded up to the minute) or `HH:MM:SS UTC`. */
function clockTime(ms: number, seconds: boolean): string {
  const date = new Date(seconds ? ms : Math.ceil(ms / 60_000) * 60_000);
  return `${date.toISOString().slice(11, seconds ? 19 : 16)} UTC`;
}
