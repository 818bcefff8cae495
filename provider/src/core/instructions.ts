// What the core's messages tell a user to do, in the words of the tool they run: each shell (and
// the CLI, which reads a stack's configuration) passes Pulumi's (pulumi-names/instructions.ts);
// without any, the plain words below.

export interface Instructions {
  /** How to set a setting the configuration lacks, e.g. `` `tool config set <key> <url>` ``. */
  setSetting(key: string, options: { secret: boolean; placeholder: string }): string;
  /** How to run the writes again, once a deployment settles or a budget allows: `run again`. */
  runAgain: string;
}

/** Instructions that name the setting and no tool. */
export const PLAIN_INSTRUCTIONS: Instructions = {
  setSetting: (key, { secret }) => (secret ? `${key}, a secret,` : key),
  runAgain: "run again",
};
