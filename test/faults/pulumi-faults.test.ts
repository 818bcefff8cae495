// The 20 % fault run against the server's full profile (pulumi-faults-suite.ts).
import { pulumiFaultsSuite } from "./pulumi-faults-suite";

pulumiFaultsSuite("full");
