import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import * as argon2 from 'argon2';

/**
 * Passwords: argon2id (the `argon2` package, prebuilt binaries of the reference implementation) with OWASP's
 * minimum parameters, 19 MiB of memory, 2 passes, 1 lane: memory-hard, so a leaked table is costly to attack.
 */
const ARGON2_OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;
export const PASSWORD_MIN = 12;
/** argon2 takes any length; a bound keeps one request from costing more than a sign-in should. */
export const PASSWORD_MAX = 256;

export const hashPassword = (password: string): Promise<string> => argon2.hash(password, ARGON2_OPTIONS);

/** A hash of nothing anyone knows: an unknown email costs the same verification as a known one. */
const decoy = hashPassword(randomBytes(32).toString('base64url'));

/** Whether `password` matches `hash`; with no hash (unknown email, no password yet) it checks the decoy. */
export async function passwordMatches(hash: string | null, password: string): Promise<boolean> {
  if (!hash) {
    await argon2.verify(await decoy, password);
    return false;
  }
  return argon2.verify(hash, password);
}

/**
 * A session's CSRF token, derived from its session token with HMAC: the browser reads it from the session's
 * answer and echoes it in `X-CSRF-Token`, which a page of another origin cannot do; the session token cannot be
 * recovered from it, and nothing has to be stored for it.
 */
export const csrfTokenOf = (sessionToken: string): string =>
  createHmac('sha256', sessionToken).update('dashboard-csrf').digest('base64url');

/** Constant-time comparison of two strings (their SHA-256 digests, so lengths do not leak either). */
export function sameSecret(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}
