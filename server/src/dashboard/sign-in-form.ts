// The sign-in form's CSRF token, kept nowhere on the server: the browser holds a random value in a
// cookie of its own (HttpOnly, SameSite=Strict), and the form's token is an HMAC of it under a key
// derived from the server's. A sign-in is accepted only with a token that matches its cookie, so
// another site can neither read nor forge one (login CSRF), while opening the sign-in page makes no
// session: a crowd of visitors (or a script) opening it cannot push anyone's form out, and leaves
// nothing in the database.
import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";

export const SIGN_IN_FORM_COOKIE = "asset_delivery_sign_in";
/** How long a sign-in form stays good: as long as an unused session. */
export const SIGN_IN_FORM_HOURS = 8;
const NONCE = /^[A-Za-z0-9_-]{22}$/;

export type SignInForms = ReturnType<typeof createSignInForms>;

export function createSignInForms(secretKey: Buffer) {
  const key = Buffer.from(hkdfSync("sha256", secretKey, Buffer.alloc(0), "asset-delivery dashboard sign-in form", 32));
  const tokenOf = (nonce: string) => createHmac("sha256", key).update(nonce).digest();

  return {
    /**
     * The token for a form shown to the browser that sent `cookie`, and the cookie's new value when it
     * had none (or one we did not make): every tab of one browser shares the cookie, so each form stays good.
     */
    issue(cookie: string | undefined): { token: string; newCookie?: string } {
      if (cookie !== undefined && NONCE.test(cookie)) return { token: tokenOf(cookie).toString("base64url") };
      const nonce = randomBytes(16).toString("base64url");
      return { token: tokenOf(nonce).toString("base64url"), newCookie: nonce };
    },
    /** Whether `token` is the one this cookie's forms carry. */
    verify(cookie: string | undefined, token: unknown): boolean {
      if (cookie === undefined || !NONCE.test(cookie) || typeof token !== "string") return false;
      const given = Buffer.from(token, "base64url");
      const expected = tokenOf(cookie);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}
