import { randomBytes } from 'node:crypto';

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * `prefix` + `length` base62 characters from the CSPRNG (rejection sampling keeps them uniform). Used for
 * credentials that are bearer secrets: vault tokens, nonces, 3DS session ids.
 */
export function randomToken(prefix: string, length = 32): string {
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < 248 && out.length < length) out += BASE62[b % 62];
    }
  }
  return `${prefix}${out}`;
}
