// `asset-delivery drift` end to end against the server's minimal profile (drift-command-suite.ts).
import { driftCommandSuite } from "./drift-command-suite";

driftCommandSuite("minimal");
