// API key permissions (spec section 5).
import { z } from "zod";

export const PERMISSIONS = ["Account Admin", "Analytics", "Sources", "Purge", "Asset Manager Browse", "Asset Manager Edit"] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const permissionSchema = z.enum(PERMISSIONS, { error: `must be one of ${PERMISSIONS.join(", ")}` });

/** Whether a key holding `held` may use a route that needs `needed`. */
export function grants(held: readonly Permission[], needed: Permission): boolean {
  if (held.includes("Account Admin") || held.includes(needed)) return true;
  return needed === "Asset Manager Browse" && held.includes("Asset Manager Edit");
}

export const MAX_KEYS_PER_ACCOUNT = 20;
