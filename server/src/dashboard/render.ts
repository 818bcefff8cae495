// What every page shares: the views of the navigation (with the access each needs), the assets,
// and rendering a template inside the layout with the CSRF token and formatting helpers.
import * as fs from "node:fs";
import * as path from "node:path";
import type { FastifyReply } from "fastify";
import { mayAccess, type PageAccess } from "./page";
import type { DashboardUser } from "./users/user-store";

/** Templates and assets: server/dashboard, beside src and dist alike. */
export const FILES_DIR = path.join(__dirname, "..", "..", "dashboard");

/** The views of the navigation, in its order; each page of a view declares the view's access. */
export const VIEWS = {
  sources: { path: "/dashboard/sources", label: "Sources", access: "Sources" },
  reports: { path: "/dashboard/reports", label: "Reports", access: "Analytics" },
  videos: { path: "/dashboard/videos", label: "Video jobs", access: "signed-in" },
  keys: { path: "/dashboard/keys", label: "API keys", access: "signed-in" },
} as const satisfies Record<string, { path: string; label: string; access: Exclude<PageAccess, "public"> }>;
export type ViewName = keyof typeof VIEWS;

function asset(name: string, type: string) {
  return { type, body: fs.readFileSync(path.join(FILES_DIR, "assets", name)) };
}
export const ASSETS: Record<string, { type: string; body: Buffer }> = {
  "dashboard.css": asset("dashboard.css", "text/css; charset=utf-8"),
  "sources-status.js": asset("sources-status.js", "text/javascript; charset=utf-8"),
};

/** Unix seconds as `2026-11-25 21:40 UTC`; "-" for none. */
export function formatTime(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return "-";
  return new Date(seconds * 1000).toISOString().slice(0, 16).replace("T", " ") + " UTC";
}

/** The first view the user may open: where signing in leads. */
export function homeOf(user: DashboardUser): string {
  return Object.values(VIEWS).find((view) => mayAccess(user, view.access))!.path;
}

export interface PageFrame {
  title: string;
  /** The signed-in user: the navigation and the sign-out form. */
  user?: DashboardUser;
  active?: ViewName;
  /** The token of a form for someone not signed in (sign-in-form.ts): it has no session to hold one. */
  csrf?: string;
  /** Script assets to load (same origin only). */
  scripts?: readonly string[];
}

export function renderPage(reply: FastifyReply, view: string, frame: PageFrame, data: Record<string, unknown> = {}) {
  const user = frame.user;
  return reply.type("text/html; charset=utf-8").view(view, {
    ...data,
    title: frame.title,
    user: user && { email: user.email },
    nav: user
      ? Object.entries(VIEWS)
          .filter(([, v]) => mayAccess(user, v.access))
          .map(([name, v]) => ({ ...v, active: name === frame.active }))
      : [],
    // A signed-in user's forms carry their session's token; only the sign-in form brings its own.
    csrf: frame.csrf ?? (user ? reply.generateCsrf() : ""),
    scripts: frame.scripts ?? [],
    formatTime,
  });
}
