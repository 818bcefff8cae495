// The native plugin's whole life against the minimal profile, which sends only what the spec
// promises, as the real service (see source-lifecycle-suite.ts).
import { pluginLifecycleSuite } from "./source-lifecycle-suite";

pluginLifecycleSuite("minimal");
