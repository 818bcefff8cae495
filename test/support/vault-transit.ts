// The tests' own Vault transit engine: the two calls of HashiCorp Vault's transit secrets engine that
// Pulumi's `hashivault` secrets provider makes (gocloud.dev/secrets/hashivault, Vault's API client):
// `PUT /v1/transit/encrypt/<key>` with `{"plaintext": <base64>}` answers
// `{"data": {"ciphertext": "vault:v1:<base64>"}}`, `PUT /v1/transit/decrypt/<key>` the reverse,
// the caller named by its `X-Vault-Token` header; errors in Vault's shape, `{"errors": [...]}`.
//
// Why the tests' stacks keep their secrets here rather than with a passphrase: Pulumi's passphrase
// provider derives its key in every command that loads a stack (PBKDF2-SHA256, 1,000,000 rounds,
// pkg/secrets/passphrase: 1.0 s of CPU on CI's machine, two thirds of an empty stack's `pulumi
// preview`), a fifth of the end-to-end tests' CPU. With this provider Pulumi encrypts each stack's
// secrets with a data key of its own, which it keeps encrypted here, as with any cloud provider.
// What a user meets keeps the passphrase (test/support/pulumi.ts, `StackSecrets`).
//
// The engine's key is the tests', fixed and no secret (as DEV_CONFIG_PASSPHRASE), so a stack outlives
// the run that made it: AES-256-GCM, a fresh 12-byte nonce each time, Vault's `vault:v1:` prefix
// before nonce, ciphertext and tag.
import * as crypto from "node:crypto";
import * as http from "node:http";
import type { AddressInfo } from "node:net";

/** The one token the engine accepts: the tests', not a secret. */
export const VAULT_TEST_TOKEN = "asset-delivery-tests";
/** Bodies above this are refused (Pulumi sends a 32-byte data key). */
const MAX_BODY_BYTES = 64 * 1024;
const KEY = crypto.createHash("sha256").update("asset-delivery tests: Vault transit key").digest();
const PREFIX = "vault:v1:";
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export interface VaultTransit {
  /** `http://127.0.0.1:<port>`: Vault's address, as VAULT_ADDR. */
  url: string;
  close(): Promise<void>;
}

/** Encrypts as the transit engine's `encrypt`: `vault:v1:` and the base64 of nonce, ciphertext and tag. */
export function transitEncrypt(plaintext: Buffer): string {
  const nonce = crypto.randomBytes(NONCE_BYTES);
  const cipher = crypto.createCipheriv("aes-256-gcm", KEY, nonce);
  const sealed = Buffer.concat([nonce, cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
  return PREFIX + sealed.toString("base64");
}

/** Decrypts what transitEncrypt made; throws on anything else (another key, a changed byte). */
export function transitDecrypt(ciphertext: string): Buffer {
  if (!ciphertext.startsWith(PREFIX)) throw new Error(`ciphertext: must start with ${PREFIX}`);
  const sealed = Buffer.from(ciphertext.slice(PREFIX.length), "base64");
  if (sealed.length < NONCE_BYTES + TAG_BYTES) throw new Error("ciphertext: too short to hold a nonce and a tag");
  const decipher = crypto.createDecipheriv("aes-256-gcm", KEY, sealed.subarray(0, NONCE_BYTES));
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
  return Buffer.concat([decipher.update(sealed.subarray(NONCE_BYTES, sealed.length - TAG_BYTES)), decipher.final()]);
}

function answer(response: http.ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}

/** One request: the token checked first, then the route, then the body. */
function handle(method: string | undefined, url: string | undefined, token: string | undefined, body: string): [number, unknown] {
  if (token !== VAULT_TEST_TOKEN) return [403, { errors: ["permission denied"] }];
  const route = /^\/v1\/transit\/(encrypt|decrypt)\/[\w.-]+$/.exec(url ?? "");
  if (!route || (method !== "PUT" && method !== "POST")) return [404, { errors: [`no handler for ${method} ${url}`] }];
  let input: { plaintext?: unknown; ciphertext?: unknown };
  try {
    input = JSON.parse(body) as typeof input;
  } catch {
    return [400, { errors: ["the body is not JSON"] }];
  }
  if (route[1] === "encrypt") {
    if (typeof input.plaintext !== "string") return [400, { errors: ["plaintext: must be a base64 string"] }];
    return [200, { data: { ciphertext: transitEncrypt(Buffer.from(input.plaintext, "base64")) } }];
  }
  if (typeof input.ciphertext !== "string") return [400, { errors: ["ciphertext: must be a string"] }];
  try {
    return [200, { data: { plaintext: transitDecrypt(input.ciphertext).toString("base64") } }];
  } catch (error) {
    return [400, { errors: [`cipher: message authentication failed (${(error as Error).message})`] }];
  }
}

/** Starts the engine on a free port of 127.0.0.1. */
export async function startVaultTransit(): Promise<VaultTransit> {
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        answer(response, 413, { errors: [`the body is over ${MAX_BODY_BYTES} bytes`] });
        request.destroy();
      } else chunks.push(chunk);
    });
    request.on("end", () => {
      const token = request.headers["x-vault-token"];
      const [status, body] = handle(
        request.method,
        request.url,
        typeof token === "string" ? token : undefined,
        Buffer.concat(chunks).toString("utf8"),
      );
      answer(response, status, body);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
