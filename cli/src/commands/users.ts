// `asset-delivery users create|list|set-password|remove`: the people who sign in to the dashboard
// (`serve`'s /dashboard). A password is read from standard input, or generated and printed once.
import { text } from "node:stream/consumers";
import { parseArgs } from "node:util";
import { PERMISSIONS } from "@asset-delivery/sdk";
import { createUser, listUsers, openMigratedDatabase, removeUser, setUserPassword } from "@asset-delivery/server";
import { databasePath, isoDate, printTable, UsageError, type Command } from "../command";

export const usersCommand: Command = {
  summary: "Create, list and remove dashboard users, and set their passwords",
  usage: `asset-delivery users create --account NAME --email EMAIL --permission P [--permission P ...] [--password-stdin] [--json] [--db PATH]
asset-delivery users list --account NAME [--json] [--db PATH]
asset-delivery users set-password --email EMAIL [--password-stdin] [--db PATH]
asset-delivery users remove --email EMAIL [--db PATH]

  --permission      one of: ${PERMISSIONS.map((p) => `"${p}"`).join(", ")}; a user may create API keys up to these
  --password-stdin  read the password from standard input (at least 12 characters; one trailing newline is dropped);
                    without it a password is generated and printed once
  --json            create: print {"id", "email", "account", "permissions", "password"?}; list: the users as JSON
The server keeps only a salted scrypt hash of the password. Setting a password or removing a user signs
out every session of theirs at once (even while serve runs); their API keys stay until revoked.`,

  async run(args) {
    const [action, ...rest] = args;
    const { values } = parseArgs({
      args: rest,
      options: {
        account: { type: "string" },
        email: { type: "string" },
        permission: { type: "string", multiple: true },
        "password-stdin": { type: "boolean" },
        json: { type: "boolean" },
        db: { type: "string" },
      },
      strict: true,
    });
    if (action === "create") {
      if (!values.account) throw new UsageError("users create needs --account NAME");
      if (!values.email) throw new UsageError("users create needs --email EMAIL");
      if (!values.permission?.length) throw new UsageError("users create needs at least one --permission");
      const password = values["password-stdin"] ? (await text(process.stdin)).replace(/\r?\n$/, "") : undefined;
      const db = openMigratedDatabase(databasePath(values.db));
      try {
        const created = await createUser(db, { account: values.account, email: values.email, permissions: values.permission, password });
        const { user, generatedPassword } = created;
        if (values.json) {
          const out = { id: user.id, email: user.email, account: created.account, permissions: user.permissions };
          process.stdout.write(JSON.stringify(generatedPassword === undefined ? out : { ...out, password: generatedPassword }) + "\n");
        } else if (generatedPassword !== undefined) {
          process.stderr.write(
            `Created user ${user.email} of ${created.account} (${user.permissions.join(", ")}). Their password is shown only now:\n`,
          );
          process.stdout.write(`${generatedPassword}\n`);
        } else {
          process.stdout.write(`Created user ${user.email} of ${created.account} (${user.permissions.join(", ")})\n`);
        }
        return 0;
      } finally {
        db.close();
      }
    }
    if (action === "set-password") {
      if (!values.email) throw new UsageError("users set-password needs --email EMAIL");
      const password = values["password-stdin"] ? (await text(process.stdin)).replace(/\r?\n$/, "") : undefined;
      const db = openMigratedDatabase(databasePath(values.db));
      try {
        const { user, generatedPassword } = await setUserPassword(db, { email: values.email, password });
        if (generatedPassword !== undefined) {
          process.stderr.write(`Set a new password for ${user.email}; their sessions are signed out. It is shown only now:\n`);
          process.stdout.write(`${generatedPassword}\n`);
        } else {
          process.stdout.write(`Set a new password for ${user.email}; their sessions are signed out\n`);
        }
        return 0;
      } finally {
        db.close();
      }
    }
    if (action === "list" || action === "remove") {
      const db = openMigratedDatabase(databasePath(values.db));
      try {
        if (action === "list") {
          if (!values.account) throw new UsageError("users list needs --account NAME");
          const users = listUsers(db, { account: values.account });
          if (values.json) process.stdout.write(JSON.stringify(users, null, 2) + "\n");
          else
            printTable(
              ["ID", "EMAIL", "PERMISSIONS", "CREATED"],
              users.map((u) => [u.id, u.email, u.permissions.join(", "), isoDate(u.createdAt)]),
            );
          return 0;
        }
        if (!values.email) throw new UsageError("users remove needs --email EMAIL");
        const removed = removeUser(db, { email: values.email });
        process.stdout.write(`Removed user ${removed.email}\n`);
        return 0;
      } finally {
        db.close();
      }
    }
    throw new UsageError(
      action === undefined
        ? "users needs an action: create, list, set-password or remove"
        : `unknown action "${action}": use create, list, set-password or remove`,
    );
  },
};
