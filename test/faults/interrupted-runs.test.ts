// Runs killed with kill -9, against the server's default profile (interrupted-runs-suite.ts).
import { interruptedRunsSuite } from "./interrupted-runs-suite";

interruptedRunsSuite("full");
