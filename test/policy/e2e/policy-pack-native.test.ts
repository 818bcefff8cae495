// The policy pack through the real Pulumi CLI on the native resource `assetdelivery:index:Source`:
// a Pulumi YAML program run by the YAML language host and the native plugin gives the same verdicts
// as the dynamic `Source` (policy-pack.test.ts), from the same scenarios (policy-pack-suite.ts).
import { policyPackSuite } from "./policy-pack-suite";

policyPackSuite("native");
