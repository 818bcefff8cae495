// Device cookies (OWASP, "Slow Down Online Guessing Attacks with Device Cookies"): a browser that
// signed in successfully as a user gets a cookie naming a random device id, signed (with a key
// derived from the server's) for that user's id and the user's session epoch. Presented with a
// sign-in as the same user, it proves the browser was the user's once, and the sign-in throttle then
// counts its failures apart from the email's (sign-in-throttle.ts): a guesser elsewhere cannot lock
// the user out of a browser they used before. A browser that signs in again with a valid cookie
// keeps its device id (else a laptop signing in six times would push the user's phone out). A
// password change moves the epoch on and forgets the user's devices, so no cookie from before it
// counts (the browser that made the change is given a new one); the server keeps the
// MAX_DEVICES_PER_USER devices of each user that signed in last (SHA-256 of their ids), so a
// cookie it no longer keeps counts for nothing either. It carries no email and signs nobody in.
import { createHmac, hash, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";
import type { Database } from "../store/database";
import type { DashboardUser } from "./users/user-store";

export const DEVICE_COOKIE = "asset_delivery_device";
/** How long a browser stays known without signing in again. */
export const DEVICE_COOKIE_DAYS = 180;
/** Browsers kept per user: a person's laptop, phone, a second browser or two. */
export const MAX_DEVICES_PER_USER = 5;

export type DeviceCookies = ReturnType<typeof createDeviceCookies>;

export function createDeviceCookies(secretKey: Buffer, db: Database, now: () => number = Date.now) {
  const key = Buffer.from(hkdfSync("sha256", secretKey, Buffer.alloc(0), "asset-delivery dashboard device cookie (user, epoch)", 32));
  const signature = (user: DashboardUser, device: string) =>
    createHmac("sha256", key).update(`${user.id}\n${user.sessionEpoch}\n${device}`).digest();
  const deviceHash = (device: string) => hash("sha256", device, "hex");

  // created_at: when the device last signed in (the newest are kept).
  const insert = db.prepare(`INSERT INTO dashboard_devices (user_id, device_hash, created_at) VALUES (?, ?, ?)
    ON CONFLICT (user_id, device_hash) DO UPDATE SET created_at = excluded.created_at`);
  const trim = db.prepare(`DELETE FROM dashboard_devices WHERE user_id = @user AND device_hash NOT IN
    (SELECT device_hash FROM dashboard_devices WHERE user_id = @user ORDER BY created_at DESC, rowid DESC LIMIT @keep)`);
  const kept = db.prepare<[string, string], number>("SELECT 1 FROM dashboard_devices WHERE user_id = ? AND device_hash = ?").pluck();
  const remember = db.transaction((user: DashboardUser, device: string) => {
    insert.run(user.id, deviceHash(device), now());
    trim.run({ user: user.id, keep: MAX_DEVICES_PER_USER });
  });

  /** The device id of a cookie issued for `user` under their current epoch and still kept, or undefined. */
  function deviceOf(user: DashboardUser | undefined, cookie: string | undefined): string | undefined {
    const [device, signed, ...rest] = (cookie ?? "").split(".");
    if (!user || !device || !signed || rest.length > 0) return undefined;
    const expected = signature(user, device);
    const given = Buffer.from(signed, "base64url");
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    return kept.get(user.id, deviceHash(device)) === undefined ? undefined : device;
  }

  return {
    /**
     * The cookie value for a browser that has just signed in as `user` (or changed their password):
     * the same device id when its `cookie` is still valid for them, else a new one; the device is
     * now the user's newest, and the one beyond the limit that signed in longest ago is forgotten.
     */
    issue(user: DashboardUser, cookie?: string): string {
      const device = deviceOf(user, cookie) ?? randomBytes(16).toString("base64url");
      remember(user, device);
      return `${device}.${signature(user, device).toString("base64url")}`;
    },
    deviceOf,
  };
}
