// A Source's whole life through the real Pulumi CLI against the server's minimal profile: only
// what the spec promises, as the real service (source-lifecycle-suite.ts). A file of its own, so
// that vitest runs the two profiles side by side.
import { sourceLifecycleSuite } from "./source-lifecycle-suite";

sourceLifecycleSuite("minimal");
