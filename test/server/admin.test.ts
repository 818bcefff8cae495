// Account and key administration (spec 5.2): names, plans and permissions checked, at most 20
// active keys per account, keys stored only as hashes.
import { createHash } from "node:crypto";
import { MAX_KEYS_PER_ACCOUNT } from "@asset-delivery/sdk";
import {
  AdminError,
  createAccount,
  createKey,
  ensureAccount,
  listKeys,
  openMigratedDatabase,
  revokeKey,
  type Database,
} from "@asset-delivery/server";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

let db: Database;
beforeEach(() => {
  db = openMigratedDatabase(":memory:");
});
afterEach(() => db.close());

describe("accounts", () => {
  it("refuses invalid names and plans, and duplicate names in any case", () => {
    expect(() => createAccount(db, { name: "has space" })).toThrow(/account name: must be 1 to 64 letters/);
    expect(() => createAccount(db, { name: "ok", plan: "gold" })).toThrow(/plan: must be one of free, paid, enterprise/);
    createAccount(db, { name: "Acme" });
    expect(() => createAccount(db, { name: "acme" })).toThrow(AdminError);
  });

  it("ensureAccount creates once, then updates plan and video", () => {
    const first = ensureAccount(db, { name: "demo", plan: "free", video: false });
    const second = ensureAccount(db, { name: "demo", plan: "enterprise", video: true });
    expect(second).toMatchObject({ id: first.id, plan: "enterprise", videoEnabled: true });
  });
});

describe("keys", () => {
  it(`allows at most ${MAX_KEYS_PER_ACCOUNT} active keys per account; revoking frees a place`, () => {
    createAccount(db, { name: "busy" });
    const keys = Array.from({ length: MAX_KEYS_PER_ACCOUNT }, () => createKey(db, { account: "busy", permissions: ["Sources"] }));
    expect(() => createKey(db, { account: "busy", permissions: ["Sources"] })).toThrow(/already has 20 active API keys/);
    revokeKey(db, keys[0]!.id);
    expect(createKey(db, { account: "busy", permissions: ["Sources"] }).key).toMatch(/^[A-Za-z0-9]{40}$/);
  });

  it("stores only the SHA-256 of a key, never the key", () => {
    createAccount(db, { name: "hashes" });
    const { id, key } = createKey(db, { account: "hashes", permissions: ["Analytics"], userName: "ada", name: "nightly report" });
    const row = db.prepare("SELECT * FROM api_keys WHERE id = ?").get(id) as Record<string, unknown>;
    expect(row.key_hash).toBe(createHash("sha256").update(key).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(key);
    expect(listKeys(db, { account: "hashes" })).toEqual([
      {
        id,
        accountId: expect.any(String),
        name: "nightly report",
        userName: "ada",
        createdByUserId: null,
        permissions: ["Analytics"],
        createdAt: expect.any(Number),
        revokedAt: null,
      },
    ]);
  });

  it("checks permissions by their exact names and needs at least one", () => {
    createAccount(db, { name: "perms" });
    expect(() => createKey(db, { account: "perms", permissions: [] })).toThrow(/at least one/);
    expect(() => createKey(db, { account: "perms", permissions: ["sources"] })).toThrow(/permission "sources": must be one of/);
    expect(createKey(db, { account: "perms", permissions: ["Sources", "Sources", "Purge"] }).permissions).toEqual(["Sources", "Purge"]);
  });

  it("keys are random: no two alike", () => {
    createAccount(db, { name: "random" });
    const keys = new Set(Array.from({ length: 15 }, () => createKey(db, { account: "random", permissions: ["Purge"] }).key));
    expect(keys.size).toBe(15);
  });
});
