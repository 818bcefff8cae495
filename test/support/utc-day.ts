// "Today" and "yesterday" for tests, from one clock. A test that computes a day and lets another
// part compute it too (the server seeding usage, a Pulumi program reading yesterday's report, the
// CLI refusing a day not over yet) fails when midnight UTC falls between the two; so it takes the
// day here, once, after waiting out a midnight closer than the time the test needs.
const DAY_MS = 86_400_000;

export interface UtcDay {
  /** The moment the day was taken, for parts that take a clock (`now` options). */
  now: number;
  /** YYYY-MM-DD, UTC. */
  today: string;
  yesterday: string;
}

const isoDate = (at: number) => new Date(at).toISOString().slice(0, 10);

/**
 * The current UTC day, guaranteed to last at least `holdsForMs` more (waiting past midnight first
 * when it would not), so that every part of a test that reads the clock within that time sees it.
 */
export async function utcDay(holdsForMs = 60_000, clock: () => number = Date.now): Promise<UtcDay> {
  const left = DAY_MS - (clock() % DAY_MS);
  if (left < holdsForMs) await new Promise((resolve) => setTimeout(resolve, left + 1_000));
  const now = clock();
  return { now, today: isoDate(now), yesterday: isoDate(now - DAY_MS) };
}
