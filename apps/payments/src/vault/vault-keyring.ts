/**
 * The vault's encryption keys, from VAULT_KEYS ("id:base64-32-bytes", comma-separated). The first key
 * encrypts; every key decrypts, so a key is rotated by putting a new one first and keeping the old ones until
 * no stored row names them.
 */
export interface VaultKey {
  id: string;
  material: Buffer;
}

/**
 * Used only outside production when VAULT_KEYS is unset, so a laptop or a test run needs no setup. It is
 * public (it is in the source), so nothing encrypted with it is secret.
 */
export const DEVELOPMENT_VAULT_KEY_ID = 'insecure-development-key';
const DEVELOPMENT_VAULT_KEY = Buffer.from('insecure-development-vault-key!!', 'utf8');

const KEY_ID = /^[A-Za-z0-9_.-]{1,32}$/;

export class VaultKeyring {
  private readonly byId: Map<string, Buffer>;

  constructor(readonly keys: readonly VaultKey[]) {
    if (!keys.length) throw new Error('VAULT_KEYS must name at least one key');
    this.byId = new Map(keys.map((k) => [k.id, k.material]));
    if (this.byId.size !== keys.length) throw new Error('VAULT_KEYS has a duplicate key id');
  }

  /** The key new rows are encrypted with. */
  get current(): VaultKey {
    return this.keys[0];
  }

  get(id: string): Buffer | undefined {
    return this.byId.get(id);
  }

  /** Builds the keyring at start-up; a bad or (in production) missing VAULT_KEYS stops the service. */
  static fromConfig(config: { VAULT_KEYS?: string; NODE_ENV?: string }): VaultKeyring {
    const raw = config.VAULT_KEYS?.trim();
    if (!raw) {
      if (config.NODE_ENV === 'production') {
        throw new Error('VAULT_KEYS is required in production (e.g. "k1:$(openssl rand -base64 32)")');
      }
      return new VaultKeyring([{ id: DEVELOPMENT_VAULT_KEY_ID, material: DEVELOPMENT_VAULT_KEY }]);
    }
    return new VaultKeyring(parseVaultKeys(raw));
  }
}

/** Parses "id:base64,id:base64"; the error names VAULT_KEYS and the entry, never the key material. */
export function parseVaultKeys(raw: string): VaultKey[] {
  return raw.split(',').map((entry, i) => {
    const at = entry.indexOf(':');
    const id = entry.slice(0, at).trim();
    const b64 = entry.slice(at + 1).trim();
    if (at < 0 || !KEY_ID.test(id)) {
      throw new Error(`VAULT_KEYS entry ${i + 1} must be "id:base64-32-bytes" with an id of [A-Za-z0-9_.-]`);
    }
    const material = Buffer.from(b64, 'base64');
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64) || material.length !== 32) {
      throw new Error(`VAULT_KEYS key "${id}" must be 32 bytes in base64 (openssl rand -base64 32)`);
    }
    return { id, material };
  });
}
