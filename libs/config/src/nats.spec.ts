import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nkeys } from 'nats';
import { loadBillingConfig } from '../../../apps/billing/src/config';
import { natsConnectOptions, plainNatsWarning } from '../../messaging/src/nats-connection';
import { natsSettingsOf } from './nats';

const seed = (): string => Buffer.from(nkeys.createUser().getSeed()).toString();
const composeSeed = 'SUABASW5TDLHS7MDH6S5CQO6TVLWDKPJSDSCRPRNOJIYBHWQBYERQJNUII';

const problemsOf = (env: NodeJS.ProcessEnv): string => {
  try {
    loadBillingConfig(env);
    return '';
  } catch (e) {
    return (e as Error).message;
  }
};

describe('NATS settings', () => {
  const caFile = join(mkdtempSync(join(tmpdir(), 'nats-ca-')), 'ca.crt');
  writeFileSync(caFile, '-----BEGIN CERTIFICATE-----\n');

  it('in production, refuses a NATS URL without TLS or without a credential, naming the variable', () => {
    const production = { NODE_ENV: 'production', IDEMPOTENCY_FINGERPRINT_KEY: randomBytes(32).toString('base64') };
    expect(problemsOf({ ...production, NATS_URL: 'nats://nats:4222', NATS_NKEY_SEED: seed() })).toMatch(
      /NATS_URL must use tls:\/\/ in production/,
    );
    expect(problemsOf({ ...production, NATS_URL: 'tls://nats:4222' })).toMatch(
      /NATS_NKEY_SEED is required in production/,
    );
    expect(problemsOf({ ...production, NATS_URL: 'tls://a:4222,nats://b:4222', NATS_NKEY_SEED: seed() })).toMatch(
      /NATS_URL must use tls:\/\//,
    );
    expect(problemsOf({ ...production, NATS_URL: 'tls://nats:4222', NATS_NKEY_SEED: composeSeed })).toMatch(
      /NATS_NKEY_SEED holds a public development or example value/,
    );
    expect(problemsOf({ ...production, NATS_URL: 'tls://nats:4222', NATS_NKEY_SEED: seed() })).toBe('');
    // A CA file turns TLS on for nats:// URLs too.
    expect(
      problemsOf({ ...production, NATS_URL: 'nats://nats:4222', NATS_CA_FILE: caFile, NATS_NKEY_SEED: seed() }),
    ).toBe('');
  });

  it('refuses a malformed seed, and a CA file that cannot be read when it connects', () => {
    expect(problemsOf({ NATS_NKEY_SEED: 'SUAB' })).toMatch(/NATS_NKEY_SEED must be a user nkey seed/);
    const missing = { ...natsSettingsOf(loadBillingConfig({ NATS_CA_FILE: '/nonexistent/ca.crt' })), name: 'billing' };
    expect(() => natsConnectOptions(missing)).toThrow(/NATS_CA_FILE names a file that cannot be read/);
    expect(problemsOf({ NATS_URL: 'http://nats:4222' })).toMatch(/NATS_URL must use nats: or tls:/);
  });

  it('connects with TLS, the nkey and an inbox of its own when configured; plain with one warning otherwise', () => {
    const secure = {
      ...natsSettingsOf(loadBillingConfig({ NATS_CA_FILE: caFile, NATS_NKEY_SEED: seed() })),
      name: 'billing',
    };
    const options = natsConnectOptions(secure);
    expect(options.tls).toEqual({ caFile });
    expect(options.authenticator).toBeInstanceOf(Function);
    expect(options.inboxPrefix).toBe('_INBOX.billing');
    expect(plainNatsWarning(secure)).toBeUndefined();

    const plain = { ...natsSettingsOf(loadBillingConfig({})), name: 'billing' };
    expect(natsConnectOptions(plain).tls).toBeUndefined();
    expect(natsConnectOptions(plain).authenticator).toBeUndefined();
    expect(plainNatsWarning(plain)).toMatch(/unauthenticated and unencrypted: development only/);
    expect(natsConnectOptions({ url: 'tls://a:4222', name: 'x' }).tls).toEqual({});
  });
});
