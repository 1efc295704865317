import { Cipher, Keyring, secretsKeyring, WebhookSecretCipher } from '@app/cipher';

/** The settings the gateway's key ring is read from: a loaded GatewayConfig, or the raw environment. */
export interface GatewayKeySettings {
  GATEWAY_SECRET_KEYS?: string;
  /** The former name of GATEWAY_SECRET_KEYS, read when that is unset (this release only). */
  WEBHOOK_SECRET_KEYS?: string;
  NODE_ENV?: string;
}

/** Which variable holds the gateway's keys: the new name, or the former one when only that is set. */
export function gatewayKeyVariable(settings: GatewayKeySettings): 'GATEWAY_SECRET_KEYS' | 'WEBHOOK_SECRET_KEYS' {
  return !present(settings.GATEWAY_SECRET_KEYS) && present(settings.WEBHOOK_SECRET_KEYS)
    ? 'WEBHOOK_SECRET_KEYS'
    : 'GATEWAY_SECRET_KEYS';
}

/**
 * The gateway's key ring (GATEWAY_SECRET_KEYS): the keys that encrypt its secrets at rest, dashboard TOTP
 * secrets and stored Idempotency-Key answers that show a secret (and, in its past migrations, the webhook
 * secrets it held before the webhooks service did). Outside production, unset, it is the development key
 * the former name had, so rows sealed under either name open.
 */
export function gatewayKeyring(settings: GatewayKeySettings): Keyring {
  const variable = gatewayKeyVariable(settings);
  return secretsKeyring(variable, settings[variable], settings.NODE_ENV === 'production');
}

/** The gateway's key ring as the cipher of its sealed rows (idempotent answers, migrated webhook secrets). */
export function gatewaySecretCipher(settings: GatewayKeySettings): WebhookSecretCipher {
  return new WebhookSecretCipher(new Cipher(gatewayKeyring(settings)));
}

/**
 * The warning to log when the gateway's keys come from the former name WEBHOOK_SECRET_KEYS (read this release
 * only), or when both names are set (the former one is then ignored); undefined when only the new name is used.
 */
export function formerKeyNameWarning(settings: GatewayKeySettings): string | undefined {
  if (!present(settings.WEBHOOK_SECRET_KEYS)) return undefined;
  if (present(settings.GATEWAY_SECRET_KEYS)) {
    return 'WEBHOOK_SECRET_KEYS is ignored by the gateway: GATEWAY_SECRET_KEYS is set (unset the former name)';
  }
  return 'WEBHOOK_SECRET_KEYS is deprecated for the gateway: rename it GATEWAY_SECRET_KEYS (the former name is read this release only)';
}

const present = (raw: string | undefined): raw is string => raw !== undefined && raw.trim() !== '';
