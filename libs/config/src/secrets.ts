/**
 * A production start refuses secrets anyone can read: the development values written in docker-compose.yml,
 * the k8s example Secret, the source and the docs, placeholders, and anything with less than 32 random bytes
 * in it. Outside production any value is accepted, so a laptop and the tests need no setup.
 */

/** Every secret value the repository itself publishes (test/deploy checks that the manifests' values are here). */
export const PUBLIC_SECRET_VALUES: readonly string[] = [
  // docker-compose.yml, before it ran as development
  'dev-admin-token',
  'dev-sdk-token-secret',
  'iFGrd2nlyyoXZhBHA+34G46ZhH+HFZK2/kUsOkJej4w=',
  'Wq3n6mXbJ0t1hD8cVYx2rL5eP9sA4uKzN7gF0oTiQjE=',
  // docker-compose.yml (development)
  'insecure-development-admin-token',
  'insecure-development-sdk-token-secret',
  // The built-in development keys of the vault and of webhook secrets, in base64
  Buffer.from('insecure-development-vault-key!!').toString('base64'),
  Buffer.from('insecure-development-hook-key!!!').toString('base64'),
  // The built-in development key of Idempotency-Key fingerprints (DEVELOPMENT_FINGERPRINT_KEY)
  'insecure-development-idempotency-fingerprint-key',
  // docker-compose.yml (development): the apps' NATS nkey seeds
  'SUAEGXAP3QSCXPDOITLRHRBMMD7EMFQSY4HKN532TWG5ZALBSSA646KVLU',
  'SUAB5IGX37PAA7ZN3SO6ZZPADJMIVASB2PG3SAN3UY6WM6XY2V2OZVAU64',
  'SUACDSCJNP737MNYC7AZSXDD6NM5XF26OQPNL6MGJKWV3LQQIFNVUR67MY',
  'SUABASW5TDLHS7MDH6S5CQO6TVLWDKPJSDSCRPRNOJIYBHWQBYERQJNUII',
  'SUAKMOAB7DIXTF5FLSCQEDX6QZQKBEVE34OBMS5QLJMLACROLVX73HTXTA',
  // The tests' admin token and the database password of docker-compose.yml
  'test-admin-token',
  'postgres',
];

/** Placeholder words: CHANGE_ME of the k8s example Secret, and any value that says it is not a real secret. */
const PLACEHOLDER = /change[_-]?me|insecure|placeholder|example/i;

/** 32 bytes: what `openssl rand -base64 32` or `openssl rand -hex 32` prints. */
export const MIN_SECRET_BITS = 256;

/**
 * An estimate of the random bits in a secret: its length times the bits of the alphabet it is written in
 * (hex, base64, or the character classes it uses). A value of few distinct characters counts as nothing.
 */
export function estimatedBits(value: string): number {
  if (new Set(value).size < 10) return 0;
  let alphabet: number;
  if (/^[0-9a-f]+$/i.test(value)) alphabet = 16;
  else if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(value)) alphabet = 64;
  else {
    alphabet = 0;
    if (/[a-z]/.test(value)) alphabet += 26;
    if (/[A-Z]/.test(value)) alphabet += 26;
    if (/[0-9]/.test(value)) alphabet += 10;
    if (/[^A-Za-z0-9]/.test(value)) alphabet += 33;
  }
  return Math.floor(value.replace(/=+$/, '').length * Math.log2(alphabet));
}

const isPublic = (value: string): boolean => PUBLIC_SECRET_VALUES.includes(value) || PLACEHOLDER.test(value);

/**
 * Throws naming `name` when one of the secret's parts (the whole value, or each key of a key list) is public
 * or too weak for production; never echoes the value.
 */
export function assertProductionSecret(name: string, parts: readonly string[]): void {
  for (const part of parts) {
    if (isPublic(part)) {
      throw new Error(`${name} holds a public development or example value; production needs your own secret`);
    }
    if (estimatedBits(part) < MIN_SECRET_BITS) {
      throw new Error(
        `${name} is too weak for production: it needs at least 32 random bytes (e.g. openssl rand -base64 32)`,
      );
    }
  }
}

/** A database URL whose password is a public default (compose's, the example Secret's) is refused too. */
export function assertProductionPassword(name: string, url: URL): void {
  const password = decodeURIComponent(url.password);
  if (password && isPublic(password)) {
    throw new Error(`${name} has a public development or example password; production needs your own`);
  }
}

export const isProduction = (env: NodeJS.ProcessEnv): boolean => env.NODE_ENV?.trim() === 'production';
