import { createHmac, randomBytes } from 'node:crypto';

/** A secret in the platform's form: `whsec_` and 32 random bytes, base64url. */
export const newSecret = (): string => `whsec_${randomBytes(32).toString('base64url')}`;

const hmacHex = (secret: string, text: string): string =>
  createHmac('sha256', secret).update(text, 'utf8').digest('hex');

/**
 * The signature headers the platform puts on a delivery: `Webhook-Signature: t=<unix s>,v1=<HMAC("<t>.<body>")>`
 * and `X-Therius-Signature: sha256=<HMAC(body)>`, keyed by the whole secret string, so a receiver's own
 * verification code accepts the forwarded event as it would a real one.
 */
export function signatureHeaders(secret: string, body: string, nowMs: number): Record<string, string> {
  const t = Math.floor(nowMs / 1000);
  return {
    'webhook-signature': `t=${t},v1=${hmacHex(secret, `${t}.${body}`)}`,
    'x-therius-signature': `sha256=${hmacHex(secret, body)}`,
  };
}
