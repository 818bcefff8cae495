// Device cookies (OWASP, "Slow Down Online Guessing Attacks with Device Cookies"): a browser that
// signed in successfully as a user gets a cookie that names a random device id and is signed, with a
// key derived from the server's, for that email. Presented with a sign-in for the same email, it
// proves the browser was the user's once, and the sign-in throttle then counts its failures apart
// from the email's (sign-in-throttle.ts): a guesser elsewhere cannot lock the user out of a browser
// they used before. It carries no email and signs nobody in.
import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";
import { emailKey } from "./sign-in-throttle";

export const DEVICE_COOKIE = "asset_delivery_device";
/** How long a browser stays known without signing in again. */
export const DEVICE_COOKIE_DAYS = 180;

export type DeviceCookies = ReturnType<typeof createDeviceCookies>;

export function createDeviceCookies(secretKey: Buffer) {
  const key = Buffer.from(hkdfSync("sha256", secretKey, Buffer.alloc(0), "asset-delivery dashboard device cookie", 32));
  const signature = (email: string, device: string) =>
    createHmac("sha256", key)
      .update(`${emailKey(email)}\n${device}`)
      .digest();

  return {
    /** A new cookie value for a browser that has just signed in as `email`. */
    issue(email: string): string {
      const device = randomBytes(16).toString("base64url");
      return `${device}.${signature(email, device).toString("base64url")}`;
    },
    /** The device id of a cookie issued for `email`, or undefined (none, malformed, or another email's). */
    deviceOf(email: string, cookie: string | undefined): string | undefined {
      const [device, signed, ...rest] = (cookie ?? "").split(".");
      if (!device || !signed || rest.length > 0) return undefined;
      const expected = signature(email, device);
      const given = Buffer.from(signed, "base64url");
      return given.length === expected.length && timingSafeEqual(given, expected) ? device : undefined;
    },
  };
}
