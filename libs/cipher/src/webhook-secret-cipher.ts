import { Cipher, Sealed } from './cipher';
import { Keyring } from './keyring';

/** The id of the public development key used outside production when the key ring's variable is unset. */
export const DEVELOPMENT_WEBHOOK_KEY_ID = 'insecure-development-key';
const DEVELOPMENT_WEBHOOK_KEY = Buffer.from('insecure-development-hook-key!!!', 'utf8');

/**
 * A key ring of secrets at rest read from `variable` ("id:base64-32-bytes" pairs): outside production, the
 * public development key when it is unset. The gateway's GATEWAY_SECRET_KEYS and the webhooks service's
 * WEBHOOK_SECRET_KEYS share the development key, so rows sealed in development open under either name.
 */
export function secretsKeyring(variable: string, raw: string | undefined, production: boolean): Keyring {
  return Keyring.fromSetting({
    variable,
    raw,
    production,
    developmentKey: { id: DEVELOPMENT_WEBHOOK_KEY_ID, material: DEVELOPMENT_WEBHOOK_KEY },
  });
}

/** Who a stored signing secret belongs to: sealed to it, so a blob copied to another row does not open. */
export type SecretOwner = { endpointId: string } | { merchantCode: string; environment: string };

/**
 * Webhook signing secrets at rest: AES-256-GCM with WEBHOOK_SECRET_KEYS (a key id per row, for rotation),
 * bound to the endpoint or to the merchant and environment of an account secret. The secrets have to be
 * recovered to sign each delivery, so they are encrypted, not hashed.
 */
export class WebhookSecretCipher {
  constructor(private readonly cipher: Cipher) {}

  static fromConfig(config: { WEBHOOK_SECRET_KEYS?: string; NODE_ENV?: string }): WebhookSecretCipher {
    return new WebhookSecretCipher(new Cipher(WebhookSecretCipher.keyringOf(config)));
  }

  /** The keys of WEBHOOK_SECRET_KEYS (the webhooks service's). */
  static keyringOf(config: { WEBHOOK_SECRET_KEYS?: string; NODE_ENV?: string }): Keyring {
    return secretsKeyring('WEBHOOK_SECRET_KEYS', config.WEBHOOK_SECRET_KEYS, config.NODE_ENV === 'production');
  }

  seal(owner: SecretOwner, secret: string): Sealed {
    return this.cipher.seal(secret, contextOf(owner));
  }

  open(owner: SecretOwner, sealed: Sealed): string {
    return this.cipher.open(sealed, contextOf(owner));
  }

  /** A stored Idempotency-Key answer that shows a secret, bound to the key it answers (`keyOwner`). */
  sealAnswer(keyOwner: string, answer: string): Sealed {
    return this.cipher.seal(answer, `idempotent-answer:${keyOwner}`);
  }

  openAnswer(keyOwner: string, sealed: Sealed): string {
    return this.cipher.open(sealed, `idempotent-answer:${keyOwner}`);
  }
}

const contextOf = (owner: SecretOwner): string =>
  'endpointId' in owner
    ? `webhook-endpoint:${owner.endpointId}`
    : `webhook-secret:${owner.environment}:${owner.merchantCode}`;
