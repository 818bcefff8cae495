// `customTimeouts` as Pulumi's engine reads one (pkg/resource/deploy/source_eval.go,
// `generateTimeoutInSeconds`): Go's `time.ParseDuration` ("90s", "5m", "1h30m", "1.5h"), in
// seconds, the timeout the engine gives a provider's Create and Update. The native plugin gets the
// seconds in its requests; Pulumi's dynamic provider host passes none, so the dynamic shell reads
// the Source class's copy of the option (dynamic/resource-options.ts) with this.

const NANOSECONDS: Readonly<Record<string, number>> = {
  ns: 1,
  us: 1e3,
  "\u00b5s": 1e3, // micro sign
  "\u03bcs": 1e3, // Greek mu
  ms: 1e6,
  s: 1e9,
  m: 60e9,
  h: 3600e9,
};

/** Go's duration syntax: a sign, then numbers each with its unit; "0" alone needs none. */
const DURATION = /^[-+]?(?:0|(?:(?:\d+\.?\d*|\.\d+)(?:ns|us|\u00b5s|\u03bcs|ms|s|m|h))+)$/;
const SEGMENT = /(\d+\.?\d*|\.\d+)(ns|us|\u00b5s|\u03bcs|ms|s|m|h)/g;
/** The longest duration Go holds (an int64 of nanoseconds), in seconds. */
const MAX_SECONDS = Number(2n ** 63n - 1n) / 1e9;

/** A Go duration in seconds; undefined where the engine refuses it. */
export function durationSeconds(text: string): number | undefined {
  if (!DURATION.test(text)) return undefined;
  let nanoseconds = 0;
  for (const [, value, unit] of text.matchAll(SEGMENT)) nanoseconds += Number(value) * NANOSECONDS[unit!]!;
  const seconds = nanoseconds / 1e9;
  if (seconds > MAX_SECONDS) return undefined;
  return text.startsWith("-") ? -seconds : seconds;
}
