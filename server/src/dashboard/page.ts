// Pages as data, the way the API's defineRoute declares routes: each page names who may see it
// (anyone, any signed-in user, or the holders of one permission of the spec), and one hook checks
// that on the matched route's declaration, never on the raw URL. A dashboard route that declares
// nothing is refused at start-up.
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from "fastify";
import { grants, type Permission } from "@asset-delivery/sdk";
import type { Account } from "../accounts/account-store";
import type { DashboardUser } from "./users/user-store";

/** "public": the sign-in page and assets; "signed-in": any user; a permission: its holders (or Account Admin). */
export type PageAccess = "public" | "signed-in" | Permission;

declare module "fastify" {
  interface FastifyContextConfig {
    dashboardAccess?: PageAccess;
    /** "sign-in-form": the route checks its form's token itself (sign-in-form.ts), not the session's. */
    csrf?: "sign-in-form";
  }
  interface FastifyRequest {
    /** The signed-in user and their account, on every page that is not public. */
    dashboardUser: { user: DashboardUser; account: Account } | null;
  }
}

export interface PageContext {
  request: FastifyRequest;
  reply: FastifyReply;
  user: DashboardUser;
  account: Account;
}

export class PageError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

interface PageDefinition {
  method: Extract<HTTPMethods, "GET" | "POST">;
  /** Relative to /dashboard. */
  url: string;
  access: Exclude<PageAccess, "public">;
  handler(context: PageContext): unknown;
}

export function definePage(app: FastifyInstance, page: PageDefinition): void {
  app.route({
    method: page.method,
    url: page.url,
    config: { dashboardAccess: page.access },
    handler(request, reply) {
      const { user, account } = request.dashboardUser!;
      return page.handler({ request, reply, user, account });
    },
  });
}

export function definePublicPage(
  app: FastifyInstance,
  page: {
    method: PageDefinition["method"];
    url: string;
    csrf?: "sign-in-form";
    handler: (request: FastifyRequest, reply: FastifyReply) => unknown;
  },
): void {
  const config = { dashboardAccess: "public" as const, ...(page.csrf && { csrf: page.csrf }) };
  app.route({ method: page.method, url: page.url, config, handler: page.handler });
}

/** Whether the user may open pages that need `access` (the navigation shows only those). */
export function mayAccess(user: DashboardUser, access: Exclude<PageAccess, "public">): boolean {
  return access === "signed-in" || grants(user.permissions, access);
}

/** Where to go back after signing in: only a path of the dashboard, never another site. */
export function safeReturnPath(value: unknown): string | undefined {
  return typeof value === "string" && /^\/dashboard(\/[A-Za-z0-9/_\-.?=&%[\]:]*)?$/.test(value) && !value.includes("//")
    ? value
    : undefined;
}
