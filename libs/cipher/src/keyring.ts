/**
 * Encryption keys from one setting ("id:base64-32-bytes", comma-separated, e.g. VAULT_KEYS). The first key
 * encrypts; every key decrypts, so a key is rotated by putting a new one first and keeping the old ones until
 * no stored row names them.
 */
export interface Key {
  id: string;
  material: Buffer;
}

const KEY_ID = /^[A-Za-z0-9_.-]{1,32}$/;

export interface KeyringSetting {
  /** The variable's name, for the messages (never the key material). */
  variable: string;
  raw?: string;
  production: boolean;
  /**
   * Used only outside production when the setting is unset, so a laptop or a test run needs no setup. It is
   * public (it is in the source), so nothing encrypted with it is secret.
   */
  developmentKey: Key;
}

export class Keyring {
  private readonly byId: Map<string, Buffer>;

  constructor(
    readonly keys: readonly Key[],
    /** The setting the keys came from, named in errors. */
    readonly variable = 'the keyring',
  ) {
    if (!keys.length) throw new Error(`${variable} must name at least one key`);
    this.byId = new Map(keys.map((k) => [k.id, k.material]));
    if (this.byId.size !== keys.length) throw new Error(`${variable} has a duplicate key id`);
  }

  /** The key new rows are encrypted with. */
  get current(): Key {
    return this.keys[0];
  }

  get(id: string): Buffer | undefined {
    return this.byId.get(id);
  }

  /** Builds the keyring at start-up; a bad or (in production) missing setting stops the service. */
  static fromSetting(s: KeyringSetting): Keyring {
    const raw = s.raw?.trim();
    if (!raw) {
      if (s.production) {
        throw new Error(`${s.variable} is required in production (e.g. "k1:$(openssl rand -base64 32)")`);
      }
      return new Keyring([s.developmentKey], s.variable);
    }
    return new Keyring(parseKeys(s.variable, raw), s.variable);
  }
}

/** Parses "id:base64,id:base64"; the error names the variable and the entry, never the key material. */
export function parseKeys(variable: string, raw: string): Key[] {
  return raw.split(',').map((entry, i) => {
    const at = entry.indexOf(':');
    const id = entry.slice(0, at).trim();
    const b64 = entry.slice(at + 1).trim();
    if (at < 0 || !KEY_ID.test(id)) {
      throw new Error(`${variable} entry ${i + 1} must be "id:base64-32-bytes" with an id of [A-Za-z0-9_.-]`);
    }
    const material = Buffer.from(b64, 'base64');
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64) || material.length !== 32) {
      throw new Error(`${variable} key "${id}" must be 32 bytes in base64 (openssl rand -base64 32)`);
    }
    return { id, material };
  });
}
