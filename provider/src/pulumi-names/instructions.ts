// What the core's messages tell a user to do, in Pulumi's words (core/instructions.ts): both shells
// pass these, and so do the CLI's commands that read a stack's configuration. A setting is named
// by its key in the stack's configuration (config-keys.ts).
import type { Instructions } from "../core";
import { configKey } from "./config-keys";

export const PULUMI_INSTRUCTIONS: Instructions = {
  settingName: configKey,
  setSetting: (name, { secret, placeholder }) => `\`pulumi config set ${secret ? "--secret " : ""}${configKey(name)} ${placeholder}\``,
  runAgain: "run `pulumi up` again",
  thisRun: "this update",
  seeWhereItStands: "a refresh shows where it stands",
};
