// The tests' Vault transit engine (test/support/vault-transit.ts), over HTTP as Pulumi's hashivault
// provider calls it, and through the real CLI: a stack made with it keeps a secret encrypted in its
// config file and gives it back.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../plugin/yaml-stack";
import { pulumiEnv, pulumiWorkDir, stackInitArgs } from "../support/pulumi";
import { startVaultTransit, VAULT_TEST_TOKEN, type VaultTransit } from "../support/vault-transit";

let vault: VaultTransit;
beforeAll(async () => {
  vault = await startVaultTransit();
});
afterAll(() => vault.close());

async function call(operation: string, body: string, token = VAULT_TEST_TOKEN): Promise<{ status: number; body: any }> {
  const response = await fetch(`${vault.url}/v1/transit/${operation}/asset-delivery-tests`, {
    method: "PUT",
    headers: { "x-vault-token": token, "content-type": "application/json" },
    body,
  });
  return { status: response.status, body: await response.json() };
}

describe("the Vault transit engine", () => {
  it("decrypts what it encrypted, each encryption with a fresh nonce", async () => {
    const plaintext = Buffer.from("a 32-byte data key, for example.").toString("base64");
    const first = await call("encrypt", JSON.stringify({ plaintext }));
    const second = await call("encrypt", JSON.stringify({ plaintext }));
    expect(first.status).toBe(200);
    expect(first.body.data.ciphertext).toMatch(/^vault:v1:[A-Za-z0-9+/]+=*$/);
    expect(second.body.data.ciphertext).not.toBe(first.body.data.ciphertext);
    const back = await call("decrypt", JSON.stringify({ ciphertext: first.body.data.ciphertext }));
    expect(back).toEqual({ status: 200, body: { data: { plaintext } } });
  });

  it("refuses another token, a changed ciphertext, a body that is not JSON and an oversized body", async () => {
    const plaintext = Buffer.from("secret").toString("base64");
    expect(await call("encrypt", JSON.stringify({ plaintext }), "another")).toEqual({
      status: 403,
      body: { errors: ["permission denied"] },
    });
    const { ciphertext } = (await call("encrypt", JSON.stringify({ plaintext }))).body.data as { ciphertext: string };
    const sealed = Buffer.from(ciphertext.slice("vault:v1:".length), "base64");
    sealed[sealed.length - 1]! ^= 1;
    const changed = await call("decrypt", JSON.stringify({ ciphertext: `vault:v1:${sealed.toString("base64")}` }));
    expect(changed.status).toBe(400);
    expect(changed.body.errors[0]).toMatch(/^cipher: message authentication failed/);
    expect((await call("decrypt", "{")).status).toBe(400);
    const oversized = await fetch(`${vault.url}/v1/transit/encrypt/asset-delivery-tests`, {
      method: "PUT",
      headers: { "x-vault-token": VAULT_TEST_TOKEN },
      body: "x".repeat(65 * 1024),
    }).catch((error: Error) => error);
    // The engine answers 413 and closes the request; fetch sees one or the other first.
    expect(oversized instanceof Error ? oversized.message : String(oversized.status)).toMatch(/^(413|fetch failed)$/);
  });

  it("keeps a stack's secret config encrypted in its file for Pulumi's hashivault provider, and gives it back", async () => {
    const workDir = pulumiWorkDir("vault-transit-");
    fs.writeFileSync(path.join(workDir, "Pulumi.yaml"), JSON.stringify({ name: "vault-transit", runtime: "yaml" }));
    const env = pulumiEnv({ stateDir: path.join(workDir, ".state") });
    try {
      expect((await runCli(stackInitArgs("dev", "vault"), workDir, env)).code).toBe(0);
      expect((await runCli(["config", "set", "--secret", "token", "the-plain-secret", "--stack", "dev"], workDir, env)).code).toBe(0);
      const file = fs.readFileSync(path.join(workDir, "Pulumi.dev.yaml"), "utf8");
      expect(file).toContain("secretsprovider: hashivault://asset-delivery-tests");
      expect(file).toMatch(/^encryptedkey: /m);
      expect(file).not.toContain("encryptionsalt");
      expect(file).not.toContain("the-plain-secret");
      const got = await runCli(["config", "get", "token", "--stack", "dev"], workDir, env);
      expect(got.stdout.trim()).toBe("the-plain-secret");
      // Without the engine's token the data key cannot be had, nor the secret.
      const refused = await runCli(["config", "get", "token", "--stack", "dev"], workDir, { ...env, VAULT_TOKEN: "another" });
      expect(refused.code).not.toBe(0);
      expect(refused.stdout).not.toContain("the-plain-secret");
    } finally {
      fs.rmSync(workDir, { recursive: true, force: true });
    }
  }, 60_000);
});
