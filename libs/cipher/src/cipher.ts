import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { Keyring } from './keyring';

const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Ciphertext at rest: the id of the key that sealed it, and iv ‖ tag ‖ ciphertext. */
export interface Sealed {
  keyId: string;
  blob: Buffer;
}

/** Decryption failed: unknown key id, wrong context, or the stored bytes were altered. */
export class DecryptError extends Error {
  constructor(reason: string) {
    super(`Ciphertext cannot be opened: ${reason}`);
    this.name = 'DecryptError';
  }
}

/**
 * AES-256-GCM under the keyring's current key (the payments vault's cards, the gateway's webhook secrets). `context` is authenticated additional data (e.g. the row's
 * kind, merchant, environment and id): a ciphertext copied into another row, merchant or environment fails to
 * open instead of decrypting someone else's card.
 */
export class Cipher {
  constructor(private readonly keyring: Keyring) {}

  seal(plaintext: string, context: string): Sealed {
    const key = this.keyring.current;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, key.material, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return { keyId: key.id, blob: Buffer.concat([iv, cipher.getAuthTag(), body]) };
  }

  open(sealed: Sealed, context: string): string {
    const material = this.keyring.get(sealed.keyId);
    if (!material) throw new DecryptError(`key "${sealed.keyId}" is not in ${this.keyring.variable}`);
    if (sealed.blob.length < IV_BYTES + TAG_BYTES) throw new DecryptError('too short');
    const iv = sealed.blob.subarray(0, IV_BYTES);
    const tag = sealed.blob.subarray(IV_BYTES, IV_BYTES + TAG_BYTES);
    const decipher = createDecipheriv(ALGORITHM, material, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(tag);
    try {
      return Buffer.concat([decipher.update(sealed.blob.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
        'utf8',
      );
    } catch {
      throw new DecryptError('authentication failed');
    }
  }

  sealJson(value: object, context: string): Sealed {
    return this.seal(JSON.stringify(value), context);
  }

  openJson<T>(sealed: Sealed, context: string): T {
    return JSON.parse(this.open(sealed, context)) as T;
  }

  /** True when the row was sealed under an older key (a re-encryption job can find them). */
  isStale(sealed: Sealed): boolean {
    return sealed.keyId !== this.keyring.current.id;
  }
}
