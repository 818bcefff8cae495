// A Source's whole life through the real Pulumi CLI against the server's full profile
// (source-lifecycle-suite.ts; `sourceLifecycleSuite("minimal")` runs it against the minimal one).
import { sourceLifecycleSuite } from "./source-lifecycle-suite";

sourceLifecycleSuite("full");
