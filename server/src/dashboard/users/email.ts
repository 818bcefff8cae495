// Users' emails: the longest one accepted anywhere (RFC 5321's 254 characters), so a longer one is
// refused before anything counts or stores it.
export const MAX_EMAIL_LENGTH = 254;
