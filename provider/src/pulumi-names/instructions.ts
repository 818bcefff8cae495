// What the core's messages tell a user to do, in Pulumi's words (core/instructions.ts): both shells
// pass these, and so do the CLI's commands that read a stack's configuration.
import type { Instructions } from "../core/instructions";

export const PULUMI_INSTRUCTIONS: Instructions = {
  setSetting: (key, { secret, placeholder }) => `\`pulumi config set ${secret ? "--secret " : ""}${key} ${placeholder}\``,
  runAgain: "run `pulumi up` again",
};
