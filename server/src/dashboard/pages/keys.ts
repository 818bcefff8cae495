// The API keys view (spec 5.2): the account's keys without their secrets, creating one with at
// most the user's own permissions (the 20-key limit and the key's storage are createKey's, as for
// the CLI), the new key shown once, and revoking (refused from the next API request on, since the
// API looks every key up in the database).
//
// A key is made once per form sent: each form carries a one-time token, taken before the key is
// made; the answer is a redirect (303) to /keys/new, which shows the new key once. A reload, or
// Back and send again, makes nothing.
import { randomBytes } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { LRUCache } from "lru-cache";
import { grants, MAX_KEYS_PER_ACCOUNT, PERMISSIONS, type Permission } from "@asset-delivery/sdk";
import { AdminError, createKey } from "../../accounts/admin";
import type { ApiKeyRecord } from "../../accounts/key-store";
import { definePage, PageError, type PageContext } from "../page";
import { renderPage, VIEWS } from "../render";

declare module "fastify" {
  interface Session {
    /** One-time tokens of the key forms this session was shown (the newest few). */
    keyFormTokens?: string[];
    /** Which new key /keys/new shows, once. */
    newKey?: string;
  }
}

interface KeyForm {
  name?: unknown;
  permission?: unknown;
  form_token?: unknown;
}

interface NewKey {
  userId: string;
  name: string;
  key: string;
  permissions: Permission[];
}

/** Forms a session may have open at once (tabs); older ones are refused as already sent. */
const OPEN_FORMS_PER_SESSION = 5;
/** How long a new key waits for its page: the redirect is followed at once. */
const NEW_KEY_TTL_MS = 60_000;

/**
 * Who may revoke a key: an Account Admin any of the account's; another user a key they made in the
 * dashboard (by their id, never the email text a CLI user may have typed) whose every permission
 * they hold.
 */
function mayRevoke(key: ApiKeyRecord, { user }: Pick<PageContext, "user">): boolean {
  if (key.revokedAt !== null) return false;
  if (user.permissions.includes("Account Admin")) return true;
  return key.createdByUserId === user.id && key.permissions.every((permission) => grants(user.permissions, permission));
}

function newFormToken(request: FastifyRequest): string {
  const token = randomBytes(18).toString("base64url");
  request.session.keyFormTokens = [...(request.session.keyFormTokens ?? []), token].slice(-OPEN_FORMS_PER_SESSION);
  return token;
}

function show(
  context: PageContext,
  extra: {
    created?: Omit<NewKey, "userId">;
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
      formToken: newFormToken(request),
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
  // Tokens already used, in this process: two copies of a form sent at once (each request holds
  // its own copy of the session) are told apart here, synchronously.
  const usedTokens = new LRUCache<string, true>({ max: 100_000, ttl: 24 * 3_600_000 });
  // New keys between the form's answer and their page: in memory only, never written anywhere.
  const newKeys = new LRUCache<string, NewKey>({ max: 10_000, ttl: NEW_KEY_TTL_MS });

  /** Takes the form's token: true once for a token this session was given, false after. */
  function takeFormToken(request: FastifyRequest, token: unknown): boolean {
    const open = request.session.keyFormTokens ?? [];
    if (typeof token !== "string" || !open.includes(token) || usedTokens.has(token)) return false;
    usedTokens.set(token, true);
    request.session.keyFormTokens = open.filter((other) => other !== token);
    return true;
  }

  definePage(app, { method: "GET", url: "/keys", access, handler: (context) => show(context, {}) });

  definePage(app, {
    method: "GET",
    url: "/keys/new",
    access,
    handler(context) {
      const { request, reply, user } = context;
      const id = request.session.newKey;
      request.session.newKey = undefined;
      const created = id === undefined ? undefined : newKeys.get(id);
      if (id !== undefined) newKeys.delete(id);
      // Shown once: a reload, or a page opened late, goes to the list.
      if (!created || created.userId !== user.id) return reply.redirect(VIEWS.keys.path, 303);
      return show(context, { created: { name: created.name, key: created.key, permissions: created.permissions } });
    },
  });

  definePage(app, {
    method: "POST",
    url: "/keys",
    access,
    handler(context) {
      const { request, reply, user, account } = context;
      const form = (request.body ?? {}) as KeyForm;
      const name = typeof form.name === "string" ? form.name.trim() : "";
      const requested = listOf(form.permission);
      const kept = { name, permissions: requested };
      const refuse = (status: number, error: string) => {
        reply.code(status);
        return show(context, { error, form: kept });
      };
      if (name === "") return refuse(400, "Name: give the key a name that says what it is for.");
      const beyond = requested.filter(
        (permission) => (PERMISSIONS as readonly string[]).includes(permission) && !grants(user.permissions, permission as Permission),
      );
      if (beyond.length > 0) {
        return refuse(
          403,
          `Permissions: a key can have at most your own permissions (${user.permissions.join(", ")}); not ${beyond.join(", ")}.`,
        );
      }
      if (!takeFormToken(request, form.form_token)) {
        reply.code(409);
        return show(context, {
          error:
            "This form was already sent (a reload, or Back and send again), so no other key was made: the one it made is in the list, and is not shown again.",
        });
      }
      try {
        const created = createKey(request.server.db, {
          account: account.name,
          permissions: requested,
          userName: user.email,
          createdByUserId: user.id,
          name,
        });
        const id = randomBytes(18).toString("base64url");
        newKeys.set(id, { userId: user.id, name: created.name, key: created.key, permissions: created.permissions });
        request.session.newKey = id;
        return reply.redirect(`${VIEWS.keys.path}/new`, 303);
      } catch (error) {
        if (error instanceof AdminError) return refuse(400, error.message.replace(/^permissions: /, "Permissions: "));
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
      if (!mayRevoke(key, context)) {
        throw new PageError(
          403,
          "Only an Account Admin, or the user who made the key in the dashboard and holds all its permissions, can revoke it, and only once.",
        );
      }
      request.server.keys.revoke(id);
      return reply.redirect(VIEWS.keys.path, 303);
    },
  });
}
