// The special values of Pulumi's property protocol, which the engine sends a provider and every
// Pulumi SDK writes the same (the Go SDK's resource/properties.go, @pulumi/pulumi's runtime/rpc).
// Written here rather than imported from @pulumi/pulumi/runtime/rpc: that module loads about 30 of
// the package's modules, 0.2 s of CPU at every start of the plugin, for three strings.
// test/provider/protocol-values.test.ts holds them equal to @pulumi/pulumi's. The provider core
// knows none of them: the shells map the unknown value to the core's (engine/unknowns.ts), and
// secret-envelopes.ts opens the secrets.

/** A value not known yet (a preview's output of a resource still to be created). */
export const unknownValue = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** The key whose value says what kind of special object holds it. */
export const specialSigKey = "4dabf18193072939515e22adb298388d";

/** That value for a secret. */
export const specialSecretSig = "1b47061264138c4ac30d75fd1eb44270";
