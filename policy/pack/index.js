// The policy pack's program: Pulumi runs it (with @pulumi/pulumi's run-policy-pack) from this
// folder, and it serves the package's policies. The package.json beside it gives the version.
require("../dist/index.js").servePolicyPack();
