// Dashboard users through the CLI (`asset-delivery users ...`): passwords from standard input or
// generated and shown once, stored only as a salted scrypt hash, and removal ending the sessions.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { createAccount, openMigratedDatabase } from "@asset-delivery/server";
import { hashPassword, verifyPassword, UNKNOWN_USER_HASH } from "../../server/src/dashboard/users/password";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInOverHttp } from "../support/dashboard-http";
import { startTestServer } from "../support/server";

const CLI = path.resolve(__dirname, "../../cli/bin/asset-delivery.js");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dashboard-users-"));
const dbPath = path.join(dir, "asset-delivery.db");

function cli(args: string[], input?: string) {
  const result = spawnSync(process.execPath, [CLI, "users", ...args, "--db", dbPath], { input, encoding: "utf8" });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(() => {
  const db = openMigratedDatabase(dbPath);
  createAccount(db, { name: "acme" });
  db.close();
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("passwords", () => {
  it("hashes with a fresh salt each time and verifies only the right password", async () => {
    const [a, b] = await Promise.all([hashPassword("correct horse battery"), hashPassword("correct horse battery")]);
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword("correct horse battery", a)).toBe(true);
    expect(await verifyPassword("correct horse batterY", a)).toBe(false);
    expect(await verifyPassword("", UNKNOWN_USER_HASH)).toBe(false);
  });
});

describe("asset-delivery users", () => {
  it("creates a user with a password from standard input, stored only as a hash", () => {
    const created = cli(
      ["create", "--account", "acme", "--email", "Ada@Example.com", "--permission", "Sources", "--password-stdin", "--json"],
      "a long enough password\n",
    );
    expect(created.stderr).toBe("");
    expect(created.code).toBe(0);
    const user = JSON.parse(created.stdout);
    // Stored in its canonical form (NFKC, lower case: docs/dashboard.md).
    expect(user).toMatchObject({ email: "ada@example.com", account: "acme", permissions: ["Sources"] });
    expect(user.password).toBeUndefined();
    const db = openMigratedDatabase(dbPath);
    const stored = db.prepare("SELECT password_hash FROM dashboard_users WHERE id = ?").pluck().get(user.id) as string;
    db.close();
    expect(stored).toMatch(/^scrypt\$/);
    expect(fs.readFileSync(dbPath).includes("a long enough password")).toBe(false);
  });

  it("generates a password and shows it once when none is given", () => {
    const created = cli([
      "create",
      "--account",
      "acme",
      "--email",
      "bob@example.com",
      "--permission",
      "Analytics",
      "--permission",
      "Purge",
    ]);
    expect(created.code).toBe(0);
    expect(created.stderr).toMatch(/shown only now/);
    expect(created.stdout.trim()).toMatch(/^[A-Za-z0-9]{24}$/);
    const listed = cli(["list", "--account", "acme"]);
    expect(listed.stdout).toMatch(/bob@example\.com\s+Analytics, Purge/);
    expect(listed.stdout).not.toContain(created.stdout.trim());
  });

  it("refuses bad input with the field and the rule", () => {
    expect(cli(["create", "--account", "acme", "--email", "ada@example.com", "--permission", "Sources"]).stderr).toMatch(/already exists/);
    // A fullwidth Ａ is an A in NFKC: the same address.
    expect(cli(["create", "--account", "acme", "--email", "\uFF21da@example.com", "--permission", "Sources"]).stderr).toMatch(
      /already exists/,
    );
    expect(cli(["create", "--account", "acme", "--email", "not-an-email", "--permission", "Sources"]).stderr).toMatch(
      /email: must be an address/,
    );
    expect(cli(["create", "--account", "acme", "--email", "c@example.com", "--permission", "Root"]).stderr).toMatch(
      /permission "Root": must be one of/,
    );
    expect(
      cli(["create", "--account", "acme", "--email", "c@example.com", "--permission", "Sources", "--password-stdin"], "short\n").stderr,
    ).toMatch(/password: must be at least 12 characters/);
    expect(cli(["create", "--account", "nope", "--email", "c@example.com", "--permission", "Sources"]).stderr).toMatch(
      /account "nope" does not exist/,
    );
  });

  it("sets a user's password from standard input, or generates one, and ends their sessions", async () => {
    const sessionsOf = (id: string) => {
      const db = openMigratedDatabase(dbPath);
      try {
        return db.prepare("SELECT count(*) FROM dashboard_sessions WHERE user_id = ?").pluck().get(id);
      } finally {
        db.close();
      }
    };
    const addSession = (idHash: string) => {
      const db = openMigratedDatabase(dbPath);
      const id = db.prepare("SELECT id FROM dashboard_users WHERE email = 'bob@example.com'").pluck().get() as string;
      db.prepare("INSERT INTO dashboard_sessions (id_hash, user_id, data, expires_at) VALUES (?, ?, '{}', ?)").run(
        idHash,
        id,
        Date.now() + 60_000,
      );
      db.close();
      return id;
    };

    const id = addSession("s");
    const set = cli(["set-password", "--email", "Bob@example.com", "--password-stdin"], "bob's new long password\n");
    expect(set.stderr).toBe("");
    expect(set.stdout).toMatch(/Set a new password for bob@example\.com; their sessions are signed out/);
    expect(sessionsOf(id)).toBe(0);
    const db = openMigratedDatabase(dbPath);
    const stored = db.prepare("SELECT password_hash FROM dashboard_users WHERE id = ?").pluck().get(id) as string;
    db.close();
    expect(await verifyPassword("bob's new long password", stored)).toBe(true);

    addSession("g");
    const generated = cli(["set-password", "--email", "bob@example.com"]);
    expect(generated.stderr).toMatch(/shown only now/);
    const password = generated.stdout.trim();
    expect(password).toMatch(/^[A-Za-z0-9]{24}$/);
    expect(sessionsOf(id)).toBe(0);
    // The generated password is the one that signs in now, through the dashboard's form; the one
    // set before it no longer does.
    const server = await startTestServer({ dbPath });
    try {
      await expect(signInOverHttp(server.url, "bob@example.com", "bob's new long password")).rejects.toThrow(/answered 401, not 303/);
      const session = await signInOverHttp(server.url, "bob@example.com", password);
      expect(session.cookie).toMatch(/^asset_delivery_session=./);
    } finally {
      await server.close();
    }

    expect(cli(["set-password", "--email", "bob@example.com", "--password-stdin"], "short\n").stderr).toMatch(
      /password: must be at least 12/,
    );
    expect(cli(["set-password", "--email", "nobody@example.com"]).stderr).toMatch(/no user has the email/);
  });

  it("removes a user and every session of theirs", () => {
    const db = openMigratedDatabase(dbPath);
    const id = db.prepare("SELECT id FROM dashboard_users WHERE email = 'bob@example.com'").pluck().get() as string;
    db.prepare("INSERT INTO dashboard_sessions (id_hash, user_id, data, expires_at) VALUES ('h', ?, '{}', ?)").run(id, Date.now() + 60_000);
    db.close();
    expect(cli(["remove", "--email", "BOB@example.com"]).stdout).toMatch(/Removed user bob@example\.com/);
    const after = openMigratedDatabase(dbPath);
    expect(after.prepare("SELECT count(*) FROM dashboard_sessions WHERE user_id = ?").pluck().get(id)).toBe(0);
    after.close();
    expect(cli(["remove", "--email", "bob@example.com"]).stderr).toMatch(/no user has the email/);
  });
});
