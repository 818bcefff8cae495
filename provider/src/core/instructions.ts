// What the core's messages tell a user to do, in the words of the tool they run: each shell (and
// the CLI, which reads a stack's configuration) passes Pulumi's (pulumi-names/instructions.ts);
// without any, the plain words below. The core knows a setting by its name (`maxWait`); where the
// tool's configuration keeps it, and how it is set there, are the tool's.
import type { ConfigName, SettingName } from "./config-names";

export interface Instructions {
  /** A setting as the tool's users know it, e.g. the key of the tool's configuration that holds it. */
  settingName(name: ConfigName): string;
  /** How to set a setting the configuration lacks, e.g. `` `tool config set <key> <url>` ``. */
  setSetting(name: SettingName, options: { secret: boolean; placeholder: string }): string;
  /** How to run the writes again, once a deployment settles or a budget allows: `run again`. */
  runAgain: string;
  /** The run of writes under way or previewed, as the tool calls it: `this run`. */
  thisRun: string;
  /** How to see where a Source stands after a write was stopped: `a read of the Source shows`. */
  seeWhereItStands: string;
}

/** Instructions that name the setting and no tool. */
export const PLAIN_INSTRUCTIONS: Instructions = {
  settingName: (name) => name,
  setSetting: (name, { secret }) => (secret ? `${name}, a secret,` : name),
  runAgain: "run again",
  thisRun: "this run",
  seeWhereItStands: "a read of the Source shows where it stands",
};
