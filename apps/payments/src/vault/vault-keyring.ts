import { Keyring, parseKeys } from '@app/cipher';

/** The id of the public development key used outside production when VAULT_KEYS is unset. */
export const DEVELOPMENT_VAULT_KEY_ID = 'insecure-development-key';
const DEVELOPMENT_VAULT_KEY = Buffer.from('insecure-development-vault-key!!', 'utf8');

/** The vault's keys, from VAULT_KEYS: the first encrypts, every one decrypts (rotation). */
export const vaultKeyring = (config: { VAULT_KEYS?: string; NODE_ENV?: string }): Keyring =>
  Keyring.fromSetting({
    variable: 'VAULT_KEYS',
    raw: config.VAULT_KEYS,
    production: config.NODE_ENV === 'production',
    developmentKey: { id: DEVELOPMENT_VAULT_KEY_ID, material: DEVELOPMENT_VAULT_KEY },
  });

export const parseVaultKeys = (raw: string) => parseKeys('VAULT_KEYS', raw);
