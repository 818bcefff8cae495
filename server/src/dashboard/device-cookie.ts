// Device cookies (OWASP, "Slow Down Online Guessing Attacks with Device Cookies"): a browser that
// signed in successfully as a user gets a cookie naming a random device id, signed (with a key
// derived from the server's) for that user's id and the user's session epoch. Presented with a
// sign-in as the same user, it proves the browser was the user's once, and the sign-in throttle then
// counts its failures apart from the email's (sign-in-throttle.ts): a guesser elsewhere cannot lock
// the user out of a browser they used before. A password change moves the epoch on and forgets the
// user's devices, so no cookie from before it counts; the server keeps the newest
// MAX_DEVICES_PER_USER devices of each user (SHA-256 of their ids), so a cookie it no longer keeps
// counts for nothing either. It carries no email and signs nobody in.
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

  const insert = db.prepare("INSERT INTO dashboard_devices (user_id, device_hash, created_at) VALUES (?, ?, ?)");
  const trim = db.prepare(`DELETE FROM dashboard_devices WHERE user_id = @user AND device_hash NOT IN
    (SELECT device_hash FROM dashboard_devices WHERE user_id = @user ORDER BY created_at DESC, rowid DESC LIMIT @keep)`);
  const kept = db.prepare<[string, string], number>("SELECT 1 FROM dashboard_devices WHERE user_id = ? AND device_hash = ?").pluck();
  const remember = db.transaction((user: DashboardUser, device: string) => {
    insert.run(user.id, deviceHash(device), now());
    trim.run({ user: user.id, keep: MAX_DEVICES_PER_USER });
  });

  return {
    /** A new cookie value for a browser that has just signed in as `user`; the user's oldest device beyond the limit is forgotten. */
    issue(user: DashboardUser): string {
      const device = randomBytes(16).toString("base64url");
      remember(user, device);
      return `${device}.${signature(user, device).toString("base64url")}`;
    },
    /** The device id of a cookie issued for `user` under their current epoch and still kept, or undefined. */
    deviceOf(user: DashboardUser | undefined, cookie: string | undefined): string | undefined {
      const [device, signed, ...rest] = (cookie ?? "").split(".");
      if (!user || !device || !signed || rest.length > 0) return undefined;
      const expected = signature(user, device);
      const given = Buffer.from(signed, "base64url");
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
      return kept.get(user.id, deviceHash(device)) === undefined ? undefined : device;
    },
  };
}
