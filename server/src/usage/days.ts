// UTC calendar days: the ledger files each request under its day, and reports are made per day.

const DAY_MS = 86_400_000;

/** A UTC calendar day as `YYYY-MM-DD`. */
export type UtcDay = string;

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Parses `YYYY-MM-DD`, refusing impossible dates such as 2024-02-30. */
export function parseDay(text: string): UtcDay {
  const match = DATE_PATTERN.exec(text);
  if (!match || dateOf(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) !== text) {
    throw new RangeError(`date: must be a calendar date written YYYY-MM-DD (got "${text}")`);
  }
  return text;
}

export function dateOf(ms: number): UtcDay {
  return new Date(ms).toISOString().slice(0, 10);
}

/** 00:00 UTC of the day, in ms. */
export function startOfDay(date: UtcDay): number {
  return Date.parse(`${date}T00:00:00.000Z`);
}

export function addDays(date: UtcDay, days: number): UtcDay {
  return dateOf(startOfDay(date) + days * DAY_MS);
}

export function firstOfMonth(date: UtcDay): UtcDay {
  return `${date.slice(0, 7)}-01`;
}

/** The day before the one `nowMs` falls in: the last day that is complete. */
export function yesterdayOf(nowMs: number): UtcDay {
  return addDays(dateOf(nowMs), -1);
}

/** The instant `date` ends: 00:00 UTC of the next day, in milliseconds. */
export function endOfDay(date: UtcDay): number {
  return startOfDay(addDays(date, 1));
}
