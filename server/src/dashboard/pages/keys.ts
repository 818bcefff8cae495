// The API keys view (spec 5.2): the account's keys without their secrets, creating one with at
// most the user's own permissions (the 20-key limit and the key's storage are createKey's, as for
// the CLI), the new key shown once, and revoking (refused from the next API request on, since the
// API looks every key up in the database).
import type { FastifyInstance } from "fastify";
import { grants, MAX_KEYS_PER_ACCOUNT, PERMISSIONS, type Permission } from "@asset-delivery/sdk";
import { AdminError, createKey } from "../../accounts/admin";
import type { ApiKeyRecord } from "../../accounts/key-store";
import { definePage, PageError, type PageContext } from "../page";
import { renderPage, VIEWS } from "../render";

interface KeyForm {
  name?: unknown;
  permission?: unknown;
}

/** Who may revoke a key: an Account Admin any of the account's, others the keys they created. */
function mayRevoke(key: ApiKeyRecord, { user }: Pick<PageContext, "user">): boolean {
  return key.revokedAt === null && (user.permissions.includes("Account Admin") || key.userName === user.email);
}

function show(
  context: PageContext,
  extra: {
    created?: { name: string; key: string; permissions: Permission[] };
    error?: string;
    form?: { name: string; permissions: string[] };
  },
) {
  const { request, reply, user, account } = context;
  const keys = request.server.keys.listByAccount(account.id);
  const active = keys.filter((key) => key.revokedAt === null).length;
  // Active keys first, newest first; revoked ones stay listed for the record.
  const ordered = [...keys].sort((a, b) => Number(a.revokedAt !== null) - Number(b.revokedAt !== null) || b.createdAt - a.createdAt);
  return renderPage(
    reply,
    "keys",
    { title: "API keys", user, active: "keys" },
    {
      keys: ordered.map((key) => ({ ...key, revocable: mayRevoke(key, context) })),
      activeCount: active,
      limit: MAX_KEYS_PER_ACCOUNT,
      permissions: PERMISSIONS.map((permission) => ({ name: permission, allowed: grants(user.permissions, permission) })),
      form: extra.form ?? { name: "", permissions: [] },
      created: extra.created,
      error: extra.error,
    },
  );
}

function listOf(value: unknown): string[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).filter((item): item is string => typeof item === "string");
}

export function defineKeyPages(app: FastifyInstance): void {
  const access = VIEWS.keys.access;

  definePage(app, { method: "GET", url: "/keys", access, handler: (context) => show(context, {}) });

  definePage(app, {
    method: "POST",
    url: "/keys",
    access,
    handler(context) {
      const { reply, user, account } = context;
      const form = (context.request.body ?? {}) as KeyForm;
      const name = typeof form.name === "string" ? form.name.trim() : "";
      const requested = listOf(form.permission);
      const kept = { name, permissions: requested };
      const refuse = (error: string) => {
        reply.code(400);
        return show(context, { error, form: kept });
      };
      if (name === "") return refuse("Name: give the key a name that says what it is for.");
      const beyond = requested.filter(
        (permission) => (PERMISSIONS as readonly string[]).includes(permission) && !grants(user.permissions, permission as Permission),
      );
      if (beyond.length > 0) {
        reply.code(403);
        return show(context, {
          error: `Permissions: a key can have at most your own permissions (${user.permissions.join(", ")}); not ${beyond.join(", ")}.`,
          form: kept,
        });
      }
      try {
        const created = createKey(context.request.server.db, { account: account.name, permissions: requested, userName: user.email, name });
        reply.code(201);
        return show(context, { created: { name: created.name, key: created.key, permissions: created.permissions } });
      } catch (error) {
        if (error instanceof AdminError) return refuse(error.message.replace(/^permissions: /, "Permissions: "));
        throw error;
      }
    },
  });

  definePage(app, {
    method: "POST",
    url: "/keys/:id/revoke",
    access,
    handler(context) {
      const { request, reply, account } = context;
      const id = (request.params as { id: string }).id;
      const key = request.server.keys.findById(id);
      if (!key || key.accountId !== account.id) throw new PageError(404, "No API key of this account has that id.");
      if (!mayRevoke(key, context)) throw new PageError(403, "Only an Account Admin or the key's creator can revoke it, and only once.");
      request.server.keys.revoke(id);
      return reply.redirect(VIEWS.keys.path, 303);
    },
  });
}
