// Runs killed with kill -9, a YAML program on the native plugin, against the server's minimal
// profile, which sends only what the spec promises, as the real service (interrupted-runs-suite.ts).
import { interruptedRunsSuite } from "./interrupted-runs-suite";

interruptedRunsSuite("minimal", "native");
