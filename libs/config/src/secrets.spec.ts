import { randomBytes } from 'node:crypto';
import { nkeys } from 'nats';
import { loadGatewayConfig } from '../../../apps/gateway/src/config';
import { loadBillingConfig } from '../../../apps/billing/src/config';
import { loadPaymentLinksConfig } from '../../../apps/payment-links/src/config';
import { loadPaymentsConfig } from '../../../apps/payments/src/config';
import { DEVELOPMENT_FINGERPRINT_KEY } from './env';
import { estimatedBits } from './secrets';

const strong = (): string => randomBytes(32).toString('base64');
const key = (): string => `k1:${strong()}`;
// A production start needs TLS and a credential for NATS too (libs/config/src/nats.spec.ts tests those).
const production = {
  NODE_ENV: 'production',
  NATS_URL: 'tls://nats:4222',
  NATS_NKEY_SEED: Buffer.from(nkeys.createUser().getSeed()).toString(),
  IDEMPOTENCY_FINGERPRINT_KEY: strong(),
};

const problemsOf = (load: () => unknown): string => {
  try {
    load();
    return '';
  } catch (e) {
    return (e as Error).message;
  }
};

describe('secrets in production', () => {
  it('accepts 32 random bytes in base64 or hex', () => {
    const c = loadGatewayConfig({
      ...production,
      ADMIN_TOKEN: strong(),
      SDK_TOKEN_SECRET: randomBytes(32).toString('hex'),
      WEBHOOK_SECRET_KEYS: `${key()},k0:${strong()}`,
    });
    expect(c.ADMIN_TOKEN).toBeDefined();
    expect(loadPaymentsConfig({ ...production, VAULT_KEYS: key() }).VAULT_KEYS).toMatch(/^k1:/);
  });

  it.each(['dev-admin-token', 'insecure-development-admin-token', 'CHANGE_ME', 'test-admin-token'])(
    'refuses the public value %s, naming the variable and not echoing it',
    (value) => {
      const message = problemsOf(() => loadGatewayConfig({ ...production, ADMIN_TOKEN: value }));
      expect(message).toMatch(/ADMIN_TOKEN holds a public development or example value/);
      expect(message).not.toContain(value);
    },
  );

  it('refuses a secret shorter than 32 random bytes, and one of few distinct characters', () => {
    for (const weak of [randomBytes(24).toString('base64'), randomBytes(31).toString('hex'), 'a'.repeat(80)]) {
      expect(problemsOf(() => loadGatewayConfig({ ...production, SDK_TOKEN_SECRET: weak }))).toMatch(
        /SDK_TOKEN_SECRET is too weak for production: it needs at least 32 random bytes/,
      );
    }
  });

  it('checks every key of a key list against the public ones', () => {
    const compose = 'dev1:aW5zZWN1cmUtZGV2ZWxvcG1lbnQtdmF1bHQta2V5ISE=';
    expect(problemsOf(() => loadPaymentsConfig({ ...production, VAULT_KEYS: `${key()},${compose}` }))).toMatch(
      /VAULT_KEYS holds a public/,
    );
    expect(problemsOf(() => loadGatewayConfig({ ...production, WEBHOOK_SECRET_KEYS: 'k1:CHANGE_ME' }))).toMatch(
      /WEBHOOK_SECRET_KEYS holds a public/,
    );
  });

  it('refuses a database URL with a public password', () => {
    expect(
      problemsOf(() =>
        loadPaymentsConfig({ ...production, PAYMENTS_DATABASE_URL: 'postgres://p:CHANGE_ME@db:5432/payments' }),
      ),
    ).toMatch(/PAYMENTS_DATABASE_URL has a public development or example password/);
    expect(
      loadPaymentsConfig({
        ...production,
        PAYMENTS_DATABASE_URL: `postgres://p:${randomBytes(12).toString('hex')}@db/x`,
      }),
    ).toBeDefined();
  });

  it('IDEMPOTENCY_FINGERPRINT_KEY: required in production, never a public or weak value; a development one elsewhere', () => {
    const { IDEMPOTENCY_FINGERPRINT_KEY: _, ...without } = production;
    expect(problemsOf(() => loadBillingConfig(without))).toMatch(
      /IDEMPOTENCY_FINGERPRINT_KEY is required in production/,
    );
    for (const value of [DEVELOPMENT_FINGERPRINT_KEY, 'CHANGE_ME', 'short-but-unique-0123']) {
      const message = problemsOf(() => loadPaymentLinksConfig({ ...production, IDEMPOTENCY_FINGERPRINT_KEY: value }));
      expect(message).toMatch(/IDEMPOTENCY_FINGERPRINT_KEY (holds a public|is too weak)/);
      expect(message).not.toContain(value);
    }
    const secret = strong();
    expect(loadPaymentsConfig({ ...production, IDEMPOTENCY_FINGERPRINT_KEY: secret }).IDEMPOTENCY_FINGERPRINT_KEY).toBe(
      secret,
    );
    expect(loadBillingConfig({ NODE_ENV: 'development' }).IDEMPOTENCY_FINGERPRINT_KEY).toBe(
      DEVELOPMENT_FINGERPRINT_KEY,
    );
  });

  it('names every bad secret at once', () => {
    const message = problemsOf(() =>
      loadGatewayConfig({ ...production, ADMIN_TOKEN: 'short', SDK_TOKEN_SECRET: 'dev-sdk-token-secret' }),
    );
    expect(message).toContain('ADMIN_TOKEN');
    expect(message).toContain('SDK_TOKEN_SECRET');
  });

  it('accepts any value outside production', () => {
    for (const NODE_ENV of ['development', 'test', undefined]) {
      const c = loadGatewayConfig({ NODE_ENV, ADMIN_TOKEN: 'dev-admin-token', WEBHOOK_SECRET_KEYS: 'k1:CHANGE_ME' });
      expect(c.ADMIN_TOKEN).toBe('dev-admin-token');
    }
  });

  it('estimates the bits of a secret by its alphabet', () => {
    expect(estimatedBits(randomBytes(32).toString('hex'))).toBe(256);
    expect(estimatedBits(randomBytes(32).toString('base64'))).toBeGreaterThanOrEqual(256);
    expect(estimatedBits('abcabcabcabc')).toBe(0);
  });
});
