import { randomBytes } from 'node:crypto';
import { loadGatewayConfig } from './config';
import { formerKeyNameWarning, gatewayKeyVariable, gatewaySecretCipher } from './secret-keys';

const keys = (id: string) => `${id}:${randomBytes(32).toString('base64')}`;

describe("the gateway's key ring (GATEWAY_SECRET_KEYS, formerly WEBHOOK_SECRET_KEYS)", () => {
  const ring = keys('k1');

  it('opens under the former name what was sealed under the new one, and the other way round', () => {
    const sealedNew = gatewaySecretCipher({ GATEWAY_SECRET_KEYS: ring }).sealAnswer('key-1', '{"secret":"s"}');
    const sealedOld = gatewaySecretCipher({ WEBHOOK_SECRET_KEYS: ring }).sealAnswer('key-1', '{"secret":"t"}');
    expect(gatewaySecretCipher({ WEBHOOK_SECRET_KEYS: ring }).openAnswer('key-1', sealedNew)).toBe('{"secret":"s"}');
    expect(gatewaySecretCipher({ GATEWAY_SECRET_KEYS: ring }).openAnswer('key-1', sealedOld)).toBe('{"secret":"t"}');
    // Another key ring does not open it: the keys are really the ones given.
    expect(() => gatewaySecretCipher({ GATEWAY_SECRET_KEYS: keys('k1') }).openAnswer('key-1', sealedNew)).toThrow();
  });

  it('reads the new name when both are set, and says the former one is ignored', () => {
    const both = { GATEWAY_SECRET_KEYS: ring, WEBHOOK_SECRET_KEYS: keys('k1') };
    expect(gatewayKeyVariable(both)).toBe('GATEWAY_SECRET_KEYS');
    const sealed = gatewaySecretCipher({ GATEWAY_SECRET_KEYS: ring }).sealAnswer('k', 'x');
    expect(gatewaySecretCipher(both).openAnswer('k', sealed)).toBe('x');
    expect(formerKeyNameWarning(both)).toMatch(/^WEBHOOK_SECRET_KEYS is ignored by the gateway/);
  });

  it('warns about the former name only when the gateway reads it', () => {
    expect(gatewayKeyVariable({ WEBHOOK_SECRET_KEYS: ring })).toBe('WEBHOOK_SECRET_KEYS');
    expect(formerKeyNameWarning({ WEBHOOK_SECRET_KEYS: ring })).toMatch(/deprecated .*rename it GATEWAY_SECRET_KEYS/);
    expect(formerKeyNameWarning({ GATEWAY_SECRET_KEYS: ring })).toBeUndefined();
    expect(formerKeyNameWarning({})).toBeUndefined();
  });

  it('names the variable it read in its errors, and requires one in production', () => {
    expect(() => gatewaySecretCipher({ GATEWAY_SECRET_KEYS: 'k1:short' })).toThrow(/^GATEWAY_SECRET_KEYS key "k1"/);
    expect(() => gatewaySecretCipher({ WEBHOOK_SECRET_KEYS: 'k1:short' })).toThrow(/^WEBHOOK_SECRET_KEYS key "k1"/);
    expect(() => gatewaySecretCipher({ NODE_ENV: 'production' })).toThrow(/^GATEWAY_SECRET_KEYS is required/);
  });

  it('is the development key under either name outside production', () => {
    const sealed = gatewaySecretCipher({}).sealAnswer('k', 'x');
    expect(gatewaySecretCipher({ WEBHOOK_SECRET_KEYS: '' }).openAnswer('k', sealed)).toBe('x');
  });

  it('is configuration the gateway loads under both names', () => {
    const config = loadGatewayConfig({ GATEWAY_SECRET_KEYS: ring, WEBHOOK_SECRET_KEYS: ring });
    expect([config.GATEWAY_SECRET_KEYS, config.WEBHOOK_SECRET_KEYS]).toEqual([ring, ring]);
  });
});
