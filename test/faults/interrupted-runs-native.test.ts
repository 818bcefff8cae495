// Runs killed with kill -9, a YAML program on the native plugin, against the server's default
// profile (interrupted-runs-suite.ts).
import { interruptedRunsSuite } from "./interrupted-runs-suite";

interruptedRunsSuite("full", "native");
