// The native plugin's whole life against the full profile (see source-lifecycle-suite.ts).
import { pluginLifecycleSuite } from "./source-lifecycle-suite";

pluginLifecycleSuite("full");
