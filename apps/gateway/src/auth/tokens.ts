import { createHash, randomBytes } from 'node:crypto';

/** A token sent to a person (a session, an invitation, a password reset, a card-update link): 256 random bits, base64url. */
export const newToken = (): string => randomBytes(32).toString('base64url');

/**
 * What is stored of such a token. An unkeyed SHA-256 is enough here (unlike for a password): the token is 256
 * random bits, so nobody can find it from the hash by guessing, and no key has to be kept and rotated for it.
 */
export const tokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');
