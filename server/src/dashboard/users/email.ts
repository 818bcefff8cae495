// Users' emails, in one canonical form everywhere they are compared: the uniqueness of a user's
// email, signing in, the admin commands and the sign-in throttle. NFKC folds compatibility forms
// (the Kelvin sign K, fullwidth letters, ligatures) into their plain letters, then lower case: so
// `\u212Aate@x` and `Kate@x` are one user and one throttle series, not two users SQLite's NOCASE
// (ASCII only) tells apart while the throttle counts them as one. Stored in this form too
// (migration dashboard-005-canonical-emails brought older rows to it).

/** The longest email accepted anywhere (RFC 5321's 254 characters): a longer one is refused before anything counts or stores it. */
export const MAX_EMAIL_LENGTH = 254;

export function canonicalEmail(email: string): string {
  return email.trim().normalize("NFKC").toLowerCase();
}
