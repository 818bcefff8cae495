// Runs killed with kill -9, against the server's default profile (interrupted-runs-suite.ts): the
// dynamic Source in a TypeScript program and the native plugin in a YAML program, side by side, each
// on a server and a stack of its own and its steps in order: their waits (the 30-s outage, the
// grace after each kill) pass at once.
import { describe } from "vitest";
import { interruptedRunsSuite } from "./interrupted-runs-suite";

describe.concurrent("interrupted runs, full profile", () => {
  describe("dynamic Source", () => interruptedRunsSuite("full"));
  describe("native plugin", () => interruptedRunsSuite("full", "native"));
});
