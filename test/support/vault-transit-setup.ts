// vitest's globalSetup (vitest.config.ts): one Vault transit engine for the whole run, its address
// in VAULT_ADDR and its token in VAULT_TOKEN, which the test processes (forked after this) and the
// Pulumi commands they start inherit. Why: test/support/vault-transit.ts.
import { startVaultTransit, VAULT_TEST_TOKEN } from "./vault-transit";

export default async function setup(): Promise<() => Promise<void>> {
  const vault = await startVaultTransit();
  process.env.VAULT_ADDR = vault.url;
  process.env.VAULT_TOKEN = VAULT_TEST_TOKEN;
  return () => vault.close();
}
