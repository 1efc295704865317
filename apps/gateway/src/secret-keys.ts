import { Cipher, Keyring, WebhookSecretCipher } from '@app/cipher';
import type { GatewayConfig } from './config';

type KeyConfig = Pick<GatewayConfig, 'WEBHOOK_SECRET_KEYS' | 'NODE_ENV'>;

/** The gateway's key ring: the keys that encrypt its secrets at rest. */
export function gatewayKeyring(config: KeyConfig): Keyring {
  return WebhookSecretCipher.keyringOf(config);
}

/** The gateway's key ring as the cipher of its sealed rows (idempotent answers, migrated webhook secrets). */
export function gatewaySecretCipher(config: KeyConfig): WebhookSecretCipher {
  return new WebhookSecretCipher(new Cipher(gatewayKeyring(config)));
}
