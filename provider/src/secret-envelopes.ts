// Pulumi's secret envelopes, opened by one walker (engine/envelopes.ts):
// `@asset-delivery/provider/secret-envelopes`, for readers of a stack's exported state (the CLI)
// and the native plugin's wire. A secret is an object whose signature key (`specialSigKey`) holds
// the secret signature (`specialSecretSig`), both Pulumi's protocol constants
// (engine/protocol-values.ts), around the value: the engine's wire form (`value`), an exported
// state's (`plaintext`), or an encrypted one (`ciphertext`), which cannot be opened here.
import { specialSecretSig, specialSigKey } from "./engine/protocol-values";
import { EncryptedSecretError, openEnvelopes, type EnvelopePath } from "./engine/envelopes";

export { EncryptedSecretError, specialSecretSig, specialSigKey, type EnvelopePath };

/**
 * The value with every secret envelope opened, and the paths where envelopes were (outermost
 * first, a secret inside a secret included). Another special object (a resource reference, an
 * asset, an output value) is refused, naming its path.
 */
export function openSecretEnvelopes(value: unknown): { value: unknown; secretPaths: EnvelopePath[] } {
  return openEnvelopes(value, (leaf) => leaf);
}

/** A value in the engine's wire form of a secret. */
export function secretEnvelope(value: unknown): Record<string, unknown> {
  return { [specialSigKey]: specialSecretSig, value };
}
