// Types of report.cjs, for the TypeScript benchmark.
export interface Check {
  pass: boolean;
  text: string;
}
export function median(values: readonly number[]): number;
export function check(
  label: string,
  value: number,
  target: number,
  options?: { atMost?: boolean; unit?: string; describe?: string },
): Check;
export function summarize(name: string, checks: readonly Check[]): void;
/** Runs `run` and gives its result with the seconds it took. */
export function timed<T>(run: () => Promise<T>): Promise<{ seconds: number; result: T }>;
