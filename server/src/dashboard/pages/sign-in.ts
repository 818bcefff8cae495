// Signing in and out (/dashboard/login, /dashboard/logout). A failed sign-in says nothing about
// which of email or password was wrong, takes as long for an unknown email, and attempts are
// counted before the password is checked (sign-in-throttle.ts); at most
// MAX_CONCURRENT_PASSWORD_HASHES passwords are checked at once, shared fairly between addresses
// (users/hashing-slots.ts), one more kept for browsers with a valid device cookie. Signing in starts
// a new session (no fixation) and leaves the browser a device cookie (device-cookie.ts), its own
// again when it brought a valid one.
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { clientAddress, clientKey } from "../client-key";
import { DEVICE_COOKIE, DEVICE_COOKIE_DAYS, type DeviceCookies } from "../device-cookie";
import { definePage, definePublicPage, PageError, safeReturnPath } from "../page";
import { homeOf, renderPage } from "../render";
import type { SessionRules } from "../session-rules";
import { SIGN_IN_FORM_COOKIE, SIGN_IN_FORM_HOURS, type SignInForms } from "../sign-in-form";
import type { SignInAttempt, SignInThrottle } from "../sign-in-throttle";
import type { HashingSlots } from "../users/hashing-slots";
import { UNKNOWN_USER_HASH, verifyPassword, MAX_PASSWORD_LENGTH } from "../users/password";
import { MAX_EMAIL_LENGTH } from "../users/email";
import type { DashboardUser, UserStore } from "../users/user-store";

interface SignInForm {
  _csrf?: unknown;
  email?: unknown;
  password?: unknown;
  next?: unknown;
}

/** The sign-in form, its token bound to the browser's sign-in cookie (sign-in-form.ts): no session is made. */
function showForm(
  request: FastifyRequest,
  reply: FastifyReply,
  forms: SignInForms,
  values: { email: string; next?: string | undefined; error?: string },
) {
  const { token, newCookie } = forms.issue(request.cookies[SIGN_IN_FORM_COOKIE]);
  if (newCookie !== undefined) {
    reply.setCookie(SIGN_IN_FORM_COOKIE, newCookie, {
      path: "/dashboard",
      httpOnly: true,
      sameSite: "strict",
      secure: request.protocol === "https",
      maxAge: SIGN_IN_FORM_HOURS * 3_600,
    });
  }
  return renderPage(reply, "login", { title: "Sign in", csrf: token }, values);
}

/** Answers 429 with Retry-After in whole seconds (at least 1); the seconds. */
export function refuseFor(reply: FastifyReply, waitMs: number): number {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  reply.code(429).header("retry-after", String(seconds));
  return seconds;
}

/**
 * Who this request tries to sign in as, for the throttle: the email, the client's address, and the
 * browser's device id if its cookie is one the user (the email's, if any) was given and still has.
 */
export function attemptOf(request: FastifyRequest, devices: DeviceCookies, email: string, user: DashboardUser | undefined): SignInAttempt {
  return { email, address: clientAddress(request), device: devices.deviceOf(user, request.cookies[DEVICE_COOKIE]) };
}

/**
 * Leaves the browser a device cookie for the user it has just proved to be (HttpOnly, Strict, Secure
 * over HTTPS): the one it holds when still valid for them, else a new one.
 */
export function rememberDevice(request: FastifyRequest, reply: FastifyReply, devices: DeviceCookies, user: DashboardUser): void {
  reply.setCookie(DEVICE_COOKIE, devices.issue(user, request.cookies[DEVICE_COOKIE]), {
    path: "/dashboard",
    httpOnly: true,
    sameSite: "strict",
    secure: request.protocol === "https",
    maxAge: DEVICE_COOKIE_DAYS * 86_400,
  });
}

/** What checking a password takes: signing in here, and changing one's password (password.ts). */
export interface PasswordCheckParts {
  users: UserStore;
  throttle: SignInThrottle;
  hashing: HashingSlots;
  sessions: SessionRules;
  devices: DeviceCookies;
}

export function defineSignInPages(
  app: FastifyInstance,
  { users, throttle, hashing, sessions, devices, forms }: PasswordCheckParts & { forms: SignInForms },
): void {
  definePublicPage(app, {
    method: "GET",
    url: "/login",
    handler(request, reply) {
      const next = safeReturnPath((request.query as Record<string, unknown>).next);
      const signedIn = sessions.userOf(request);
      if (signedIn) return reply.redirect(next ?? homeOf(signedIn), 303);
      return showForm(request, reply, forms, { email: "", next });
    },
  });

  definePublicPage(app, {
    method: "POST",
    url: "/login",
    // Its token is checked here, against the sign-in cookie: the session's CSRF check would need a session.
    csrf: "sign-in-form",
    async handler(request, reply) {
      const form = (request.body ?? {}) as SignInForm;
      if (!forms.verify(request.cookies[SIGN_IN_FORM_COOKIE], form._csrf)) {
        throw new PageError(403, "This form has expired or was not sent from this dashboard: reload the page and try again.");
      }
      const email = typeof form.email === "string" ? form.email.trim() : "";
      const password = typeof form.password === "string" ? form.password : "";
      const next = safeReturnPath(form.next);
      // Refused before it is counted, looked up or given a hashing slot: no limiter keeps anything
      // of it, and a password no user can have costs nothing without counting against anyone.
      if (email.length > MAX_EMAIL_LENGTH) {
        reply.code(400);
        return showForm(request, reply, forms, { email: "", next, error: `Email: at most ${MAX_EMAIL_LENGTH} characters.` });
      }
      if (password.length > MAX_PASSWORD_LENGTH) {
        reply.code(400);
        return showForm(request, reply, forms, { email, next, error: `Password: at most ${MAX_PASSWORD_LENGTH} characters.` });
      }
      // Whose device cookie the browser may hold (the slot kept for known browsers goes by it).
      const claimed = email === "" ? undefined : users.findForSignIn(email);
      const attempt = attemptOf(request, devices, email, claimed?.user);
      const knownDeviceOf = attempt.device === undefined ? undefined : claimed?.user.id;
      const release = await hashing.acquire(clientKey(attempt.address), { knownDeviceOf });
      if (!release) {
        const seconds = refuseFor(reply, 1_000);
        return showForm(request, reply, forms, {
          email,
          next,
          error: `The server is checking many sign-ins at once: try again in ${seconds} s.`,
        });
      }
      let found: ReturnType<UserStore["findForSignIn"]>;
      try {
        // Counted before the password is checked, in the same synchronous step as the decision.
        const admission = throttle.attempt(attempt);
        if (!admission.allowed) {
          const seconds = refuseFor(reply, admission.retryAfterMs);
          return await showForm(request, reply, forms, { email, next, error: `Too many failed sign-ins: try again in ${seconds} s.` });
        }
        // Read again after the wait for a slot: the password may have changed meanwhile.
        found = email === "" ? undefined : users.findForSignIn(email);
        // An unknown email costs one scrypt too, so the answer's timing does not tell it apart.
        const valid = await verifyPassword(password, found?.passwordHash ?? UNKNOWN_USER_HASH);
        if (!found || !valid) {
          reply.code(401);
          return await showForm(request, reply, forms, { email, next, error: "The email or the password is not right." });
        }
      } finally {
        release();
      }
      throttle.succeeded(attempt);
      rememberDevice(request, reply, devices, found.user);
      await request.session.regenerate();
      sessions.start(request, found.user);
      return reply.redirect(next ?? homeOf(found.user), 303);
    },
  });

  definePage(app, {
    method: "GET",
    url: "/",
    access: "signed-in",
    handler: ({ reply, user }) => reply.redirect(homeOf(user), 303),
  });

  definePage(app, {
    method: "POST",
    url: "/logout",
    access: "signed-in",
    async handler({ request, reply }) {
      await request.session.destroy();
      return reply.redirect("/dashboard/login", 303);
    },
  });
}
