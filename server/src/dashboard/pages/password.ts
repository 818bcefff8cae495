// Changing one's own password (/dashboard/password): the current password is checked as a sign-in
// is (counted before the check, within the hashing bound), the new one must follow the rules of
// `users create`, every other session of the user ends (session-rules.ts), and this one goes on
// under a new session id, its browser given a new device cookie (the change forgot every device).
import type { FastifyInstance } from "fastify";
import { clientKey } from "../client-key";
import { definePage, PageError, type PageContext } from "../page";
import { renderPage } from "../render";
import { idHash } from "../session-store";
import { hashPassword, MAX_PASSWORD_LENGTH, passwordProblem, verifyPassword } from "../users/password";
import { attemptOf, refuseFor, rememberDevice, type PasswordCheckParts } from "./sign-in";

interface PasswordForm {
  current?: unknown;
  password?: unknown;
  repeat?: unknown;
}

function show({ reply, user }: PageContext, values: { error?: string; changed?: boolean } = {}) {
  return renderPage(reply, "password", { title: "Change password", user }, values);
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

export function definePasswordPages(app: FastifyInstance, { users, throttle, hashing, sessions, devices }: PasswordCheckParts): void {
  definePage(app, { method: "GET", url: "/password", access: "signed-in", handler: (context) => show(context) });

  definePage(app, {
    method: "POST",
    url: "/password",
    access: "signed-in",
    async handler(context) {
      const { request, reply, user } = context;
      const form = (request.body ?? {}) as PasswordForm;
      const [current, password, repeat] = [text(form.current), text(form.password), text(form.repeat)];
      const refuse = (status: number, error: string) => {
        reply.code(status);
        return show(context, { error });
      };
      // No password is that long: refused before it takes a hashing slot or a count.
      if (current.length > MAX_PASSWORD_LENGTH) return refuse(400, `Current password: at most ${MAX_PASSWORD_LENGTH} characters.`);
      const problem = passwordProblem(password);
      if (problem) return refuse(400, `New password: ${problem}.`);
      if (password !== repeat) return refuse(400, "Repeat the new password: the two do not match.");

      const attempt = attemptOf(request, devices, user.email, user);
      const release = await hashing.acquire(clientKey(attempt.address), {
        knownDeviceOf: attempt.device === undefined ? undefined : user.id,
      });
      if (!release) {
        const seconds = refuseFor(reply, 1_000);
        return show(context, { error: `The server is checking many passwords at once: try again in ${seconds} s.` });
      }
      let newHash: string;
      try {
        const admission = throttle.attempt(attempt);
        if (!admission.allowed) {
          const seconds = refuseFor(reply, admission.retryAfterMs);
          return await show(context, { error: `Too many wrong passwords: try again in ${seconds} s.` });
        }
        const stored = users.passwordHashOf(user.id);
        const valid = stored !== undefined && (await verifyPassword(current, stored));
        if (!valid) return await refuse(401, "Current password: it is not right.");
        throttle.succeeded(attempt);
        newHash = await hashPassword(password);
      } finally {
        release();
      }
      // A new session id, as at sign-in: whoever learnt the old id (the reason to change a password,
      // often) holds nothing. The sign-in's time stays, so the absolute lifetime still counts from it.
      await request.session.regenerate(["userId", "signedInAt", "epoch"]);
      const epoch = users.setPassword(user.id, newHash, { keepSession: idHash(request.session.sessionId) });
      if (epoch === undefined) throw new PageError(401, "Your session has ended: sign in again.");
      sessions.keep(request, epoch);
      // The change forgot every device of the user: this browser, which has just proved to be theirs, is known again.
      const changed = users.findById(user.id);
      if (changed) rememberDevice(request, reply, devices, changed);
      return show(context, { changed: true });
    },
  });
}
