import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A new signing secret; the HMAC key is this whole string as UTF-8. */
export const newSigningSecret = (): string => `whsec_${randomBytes(32).toString('base64url')}`;

const hmacHex = (secret: string, t: number, body: string): string =>
  createHmac('sha256', secret).update(`${t}.${body}`, 'utf8').digest('hex');

const asList = (secrets: string | readonly string[]): readonly string[] =>
  typeof secrets === 'string' ? [secrets] : secrets;

/**
 * `Webhook-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`, with one `v1` per live
 * secret (the current one first; a rolled secret stays live for its grace period).
 */
export function signatureHeader(secrets: string | readonly string[], body: string, unixSeconds: number): string {
  return [`t=${unixSeconds}`, ...asList(secrets).map((s) => `v1=${hmacHex(s, unixSeconds, body)}`)].join(',');
}

/**
 * `X-Therius-Signature: sha256=<hex HMAC-SHA256(secret, raw body)>`, the provider's format (no timestamp), over
 * the same raw body and secrets as `Webhook-Signature`; one comma-separated entry per live secret.
 */
export function providerSignatureHeader(secrets: string | readonly string[], body: string): string {
  return asList(secrets)
    .map((s) => `sha256=${createHmac('sha256', s).update(body, 'utf8').digest('hex')}`)
    .join(',');
}

/**
 * What a receiver does (docs/webhooks.md shows the same in a few lines): recompute the HMAC over the raw
 * body, compare in constant time against every v1 value, and refuse a timestamp outside the tolerance.
 */
export function verifySignature(
  header: string,
  body: string,
  secret: string,
  nowSeconds: number,
  toleranceSeconds = 300,
): boolean {
  const parts = header.split(',').map((p) => p.trim().split('='));
  const t = Number(parts.find(([k]) => k === 't')?.[1]);
  if (!Number.isInteger(t) || Math.abs(nowSeconds - t) > toleranceSeconds) return false;
  const expected = Buffer.from(hmacHex(secret, t, body), 'hex');
  return parts
    .filter(([k, v]) => k === 'v1' && /^[0-9a-f]{64}$/.test(v ?? ''))
    .some(([, v]) => timingSafeEqual(Buffer.from(v, 'hex'), expected));
}
