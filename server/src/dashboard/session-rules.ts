// Which sessions still sign their user in. A session ends when its user is removed, an absolute
// lifetime after sign-in however busy it was (the cookie's idle timeout only ends unused ones),
// and when the user's password changes (every session but the one that changed it): the user's
// session epoch, kept with the user and copied into each session at sign-in, no longer matches.
import type { FastifyRequest } from "fastify";
import type { DashboardUser, UserStore } from "./users/user-store";

declare module "fastify" {
  interface Session {
    /** When the user signed in (the app's clock, milliseconds). */
    signedInAt?: number;
    /** The user's session epoch at sign-in: a password change moves it on. */
    epoch?: number;
  }
}

/** The default absolute lifetime of a session: 12 hours. */
export const DEFAULT_SESSION_LIFETIME_HOURS = 12;

export type SessionRules = ReturnType<typeof createSessionRules>;

export function createSessionRules({ users, now, lifetimeMs }: { users: UserStore; now: () => number; lifetimeMs: number }) {
  return {
    /** The user this request's session signs in, or undefined (none, removed, too old, or from before a password change). */
    userOf(request: FastifyRequest): DashboardUser | undefined {
      const { userId, signedInAt, epoch } = request.session;
      if (userId === undefined || signedInAt === undefined) return undefined;
      if (now() - signedInAt >= lifetimeMs) return undefined;
      const user = users.findById(userId);
      return user && user.sessionEpoch === epoch ? user : undefined;
    },
    /** Signs the user in on this (new) session. */
    start(request: FastifyRequest, user: DashboardUser): void {
      request.session.userId = user.id;
      request.session.signedInAt = now();
      request.session.epoch = user.sessionEpoch;
    },
    /** The session that changed the password stays signed in under the user's new epoch. */
    keep(request: FastifyRequest, epoch: number): void {
      request.session.epoch = epoch;
    },
  };
}
