// The 20 % fault run against the server's minimal profile: its 429s carry no Retry-After and its
// errors no source pointer (pulumi-faults-suite.ts).
import { pulumiFaultsSuite } from "./pulumi-faults-suite";

pulumiFaultsSuite("minimal");
