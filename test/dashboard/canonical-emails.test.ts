// Emails in one canonical form, NFKC and lower case (server/src/dashboard/users/email.ts), for the
// uniqueness of users, signing in and the throttle: `\u212Aate@x` (a Kelvin sign) and `kate@x` are
// one address. A database from before (migration dashboard-005-canonical-emails) has its emails
// brought to that form; two users whose emails become one address keep their rows: the one a
// sign-in with the canonical text reached before keeps the address (else the oldest), and the
// other keeps its email text as it was, no longer reached by a sign-in, still named by the admin
// commands.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { allMigrations, createUser, ensureAccount, listUsers, migrate, openDatabase, removeUser } from "@asset-delivery/server";
import { afterAll, describe, expect, it } from "vitest";
import { createUserStore } from "../../server/src/dashboard/users/user-store";
import { addUser, PASSWORD as TEST_PASSWORD } from "../support/dashboard";
import { openPage, postForm, signInOverHttp } from "../support/dashboard-http";
import { startTestServer } from "../support/server";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "canonical-emails-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const PASSWORD = "a long enough password";
const KELVIN = "\u212A";
const NEW_MIGRATIONS = ["dashboard-005-canonical-emails", "dashboard-006-devices"];

describe("canonical emails", () => {
  it("make a user whose email is another's in NFKC and lower case a duplicate", async () => {
    const db = openDatabase(path.join(dir, "new.db"));
    migrate(db, allMigrations);
    ensureAccount(db, { name: "acme", plan: "enterprise", video: false });
    await createUser(db, { account: "acme", email: "kate@example.com", permissions: ["Sources"], password: PASSWORD });
    await expect(
      createUser(db, { account: "acme", email: `${KELVIN}ate@example.com`, permissions: ["Sources"], password: PASSWORD }),
    ).rejects.toThrow(/already exists/);
    expect(createUserStore(db).findForSignIn(`${KELVIN}ATE@EXAMPLE.COM`)?.user.email).toBe("kate@example.com");
    db.close();
  });

  it("are what the email rule checks: an email whose NFKC form has two @ or is over 254 characters is refused", async () => {
    const db = openDatabase(path.join(dir, "rule.db"));
    migrate(db, allMigrations);
    ensureAccount(db, { name: "acme", plan: "enterprise", video: false });
    // U+FE6B (small commercial at) becomes "@"; U+3300 (a square katakana word) becomes 4 characters: 73 typed, 256 stored.
    for (const email of ["kate\uFE6Bwork@example.com", `${"\u3300".repeat(61)}@example.com`]) {
      await expect(createUser(db, { account: "acme", email, permissions: ["Sources"], password: PASSWORD }), email).rejects.toThrow(
        /email: must be an address such as name@example.com, at most 254 characters/,
      );
    }
    expect(listUsers(db, { account: "acme" })).toEqual([]);
    db.close();
  });

  it("are what an older database's emails become; two users that become one address both stay, one keeping it", () => {
    const db = openDatabase(path.join(dir, "old.db"));
    migrate(
      db,
      allMigrations.filter((migration) => !NEW_MIGRATIONS.includes(migration.id)),
    );
    ensureAccount(db, { name: "acme", plan: "enterprise", video: false });
    const accountId = db.prepare("SELECT id FROM accounts WHERE name = 'acme'").pluck().get() as string;
    const insert = db.prepare(
      "INSERT INTO dashboard_users (id, account_id, email, permissions, password_hash, created_at) VALUES (?, ?, ?, '[]', 'scrypt$1$1$1$AA==$AA==', ?)",
    );
    insert.run("homoglyph", accountId, `${KELVIN}ate@example.com`, 100); // older, not canonical
    insert.run("kate", accountId, "Kate@Example.com", 200); // what a sign-in as kate@example.com reached
    insert.run("bob", accountId, "Bob@Example.com", 300);
    insert.run("wide-1", accountId, "\uFF24an@example.com", 400); // fullwidth D: neither is NOCASE-equal to dan@
    insert.run("wide-2", accountId, "\uFF44an@example.com", 500);
    db.prepare(
      "INSERT INTO api_keys (id, account_id, user_name, permissions, key_hash, created_at, created_by_user_id) VALUES ('k', ?, 'x', '[]', 'h', 1, 'homoglyph')",
    ).run(accountId);

    migrate(db, allMigrations);
    const emails = Object.fromEntries(
      db
        .prepare<[], { id: string; email: string }>("SELECT id, email FROM dashboard_users")
        .all()
        .map((row) => [row.id, row.email]),
    );
    expect(emails).toEqual({
      homoglyph: `${KELVIN}ate@example.com`,
      kate: "kate@example.com",
      bob: "bob@example.com",
      "wide-1": "dan@example.com",
      "wide-2": "\uFF44an@example.com",
    });
    const users = createUserStore(db);
    expect(users.findForSignIn(`${KELVIN}ate@example.com`)?.user.id).toBe("kate");
    expect(users.findForSignIn("DAN@example.com")?.user.id).toBe("wide-1");
    expect(listUsers(db, { account: "acme" })).toHaveLength(5); // nothing lost
    expect(db.prepare("SELECT created_by_user_id FROM api_keys WHERE id = 'k'").pluck().get()).toBe("homoglyph");
    // The admin commands name the user left with its text exactly.
    expect(removeUser(db, { email: `${KELVIN}ate@example.com` }).id).toBe("homoglyph");
    expect(users.findById("kate")).toBeDefined();
    db.close();
  });

  it("leave the recorded 0.1.0 database's users as they were, every row of every table kept", () => {
    const dbPath = path.join(dir, "v0.1.0.db");
    fs.copyFileSync(path.join(__dirname, "../upgrade/recorded/v0.1.0/emulator.db"), dbPath);
    const db = openDatabase(dbPath);
    const tables = db
      .prepare<[], string>("SELECT name FROM sqlite_schema WHERE type = 'table' AND name <> 'schema_migrations'")
      .pluck()
      .all();
    const counts = () => Object.fromEntries(tables.map((table) => [table, db.prepare(`SELECT count(*) FROM "${table}"`).pluck().get()]));
    const usersBefore = db.prepare("SELECT * FROM dashboard_users ORDER BY id").all();
    const before = counts();
    expect(migrate(db, allMigrations)).toEqual(expect.arrayContaining(NEW_MIGRATIONS));
    expect(counts()).toEqual(before);
    expect(db.prepare("SELECT * FROM dashboard_users ORDER BY id").all()).toEqual(usersBefore);
    expect(db.prepare("SELECT count(*) FROM dashboard_devices").pluck().get()).toBe(0);
    db.close();
  });

  it("leave a signed-in user whose email kept its old text changing their own password, checked against their own hash", async () => {
    const server = await startTestServer();
    try {
      const email = await addUser(server.db, "kelvin@example.com", ["Sources"]);
      const session = await signInOverHttp(server.url, email, TEST_PASSWORD);
      // As migration 005 leaves such a user: its text kept, the canonical address another user's.
      server.db.prepare("UPDATE dashboard_users SET email = ? WHERE email = ?").run(`${KELVIN}ate@example.com`, email);
      await createUser(server.db, {
        account: "test",
        email: "kate@example.com",
        permissions: ["Sources"],
        password: "kate's own password",
      });
      const form = await openPage(server.url, session, "/dashboard/password");
      const fields = { current: TEST_PASSWORD, password: "a brand new password", repeat: "a brand new password" };
      const answer = await postForm(server.url, form.session, "/dashboard/password", fields);
      expect(answer.status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
