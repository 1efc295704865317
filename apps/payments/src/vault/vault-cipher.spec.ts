import { randomBytes } from 'node:crypto';
import { DecryptError } from '@app/cipher';
import { VaultCipher } from './vault-cipher';
import { DEVELOPMENT_VAULT_KEY_ID, parseVaultKeys, vaultKeyring } from './vault-keyring';

const b64 = (): string => randomBytes(32).toString('base64');
const PAN = '4111111111111111';

describe('VaultCipher (AES-256-GCM)', () => {
  const keyring = vaultKeyring({ VAULT_KEYS: `k1:${b64()}`, NODE_ENV: 'test' });
  const cipher = new VaultCipher(keyring);

  it('round-trips and names the key that sealed it', () => {
    const sealed = cipher.seal(PAN, 'card:sandbox:m1:row1');
    expect(sealed.keyId).toBe('k1');
    expect(sealed.blob.toString('hex')).not.toContain(Buffer.from(PAN).toString('hex'));
    expect(sealed.blob.toString('latin1')).not.toContain(PAN);
    expect(cipher.open(sealed, 'card:sandbox:m1:row1')).toBe(PAN);
  });

  it('uses a fresh iv each time', () => {
    const a = cipher.seal(PAN, 'c');
    const b = cipher.seal(PAN, 'c');
    expect(a.blob.equals(b.blob)).toBe(false);
  });

  it('round-trips JSON', () => {
    const sealed = cipher.sealJson({ cardNumber: PAN, cvv: '123' }, 'nonce:x');
    expect(cipher.openJson(sealed, 'nonce:x')).toEqual({ cardNumber: PAN, cvv: '123' });
  });

  it.each([
    ['a flipped ciphertext byte', (b: Buffer) => (b[b.length - 1] ^= 1)],
    ['a flipped tag byte', (b: Buffer) => (b[12] ^= 1)],
    ['a flipped iv byte', (b: Buffer) => (b[0] ^= 1)],
  ])('detects %s', (_, tamper) => {
    const sealed = cipher.seal(PAN, 'ctx');
    const blob = Buffer.from(sealed.blob);
    tamper(blob);
    expect(() => cipher.open({ keyId: sealed.keyId, blob }, 'ctx')).toThrow(DecryptError);
  });

  it('refuses a ciphertext moved to another context (row, merchant or environment)', () => {
    const sealed = cipher.seal(PAN, 'card:sandbox:m1:row1');
    expect(() => cipher.open(sealed, 'card:production:m1:row1')).toThrow(DecryptError);
    expect(() => cipher.open(sealed, 'card:sandbox:m2:row1')).toThrow(DecryptError);
  });

  it('refuses a truncated blob and an unknown key id', () => {
    const sealed = cipher.seal(PAN, 'ctx');
    expect(() => cipher.open({ keyId: 'k1', blob: sealed.blob.subarray(0, 20) }, 'ctx')).toThrow(DecryptError);
    expect(() => cipher.open({ keyId: 'nope', blob: sealed.blob }, 'ctx')).toThrow(/not in VAULT_KEYS/);
  });

  it('rotation: the first key encrypts, older keys still decrypt, a dropped key cannot', () => {
    const old = b64();
    const before = new VaultCipher(vaultKeyring({ VAULT_KEYS: `old:${old}` }));
    const sealedOld = before.seal(PAN, 'ctx');
    const rotated = new VaultCipher(vaultKeyring({ VAULT_KEYS: `new:${b64()},old:${old}` }));
    expect(rotated.open(sealedOld, 'ctx')).toBe(PAN);
    expect(rotated.isStale(sealedOld)).toBe(true);
    const sealedNew = rotated.seal(PAN, 'ctx');
    expect(sealedNew.keyId).toBe('new');
    expect(rotated.isStale(sealedNew)).toBe(false);
    expect(() => before.open(sealedNew, 'ctx')).toThrow(DecryptError);
  });
});

describe('VAULT_KEYS', () => {
  it('production without VAULT_KEYS stops start-up naming the variable', () => {
    expect(() => vaultKeyring({ NODE_ENV: 'production' })).toThrow(/VAULT_KEYS is required/);
  });

  it('outside production a fixed, clearly named development key is used', () => {
    const ring = vaultKeyring({ NODE_ENV: 'development' });
    expect(ring.current.id).toBe(DEVELOPMENT_VAULT_KEY_ID);
    expect(ring.current.material).toHaveLength(32);
  });

  it.each([
    ['no id', `:${randomBytes(32).toString('base64')}`],
    ['no colon', 'k1'],
    ['16 bytes', `k1:${randomBytes(16).toString('base64')}`],
    ['not base64', 'k1:CHANGE_ME'],
  ])('refuses %s and never echoes key material', (_, raw) => {
    let message = '';
    try {
      parseVaultKeys(raw);
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/VAULT_KEYS/);
    expect(message).not.toContain(raw.split(':')[1] || '§');
  });

  it('refuses duplicate ids', () => {
    const k = randomBytes(32).toString('base64');
    expect(() => vaultKeyring({ VAULT_KEYS: `a:${k},a:${k}` })).toThrow(/duplicate/);
  });
});
