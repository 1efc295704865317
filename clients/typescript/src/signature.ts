import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The platform's webhook signatures, the one implementation: the webhooks service signs deliveries with it, the
 * CLI signs forwarded events with it, and this client verifies with it. It needs nothing but node:crypto, so
 * the service imports it (as `@app/webhook-signature`) and the client still builds on its own.
 *
 * `Webhook-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`
 * `X-Therius-Signature: sha256=<hex HMAC-SHA256(secret, raw body)>` (the provider's format, no timestamp)
 * The HMAC key is the whole secret string as UTF-8. While a rolled secret is live, each header carries one
 * value per live secret, the current one first.
 */

export type RawBody = string | Uint8Array;
/** During a secret roll, pass the new and the old secret: a signature by either is accepted. */
export type Secrets = string | readonly string[];

export interface VerifyOptions {
  /** How far the `t` of Webhook-Signature may be from now (default 300 s). */
  toleranceSeconds?: number;
  /** Now in milliseconds (default Date.now). */
  now?: () => number;
}

/** A new signing secret: `whsec_` and 32 random bytes, base64url. */
export const newSigningSecret = (): string => `whsec_${randomBytes(32).toString('base64url')}`;

const bytesOf = (body: RawBody): Buffer => (typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body));
const secretsOf = (secrets: Secrets): readonly string[] => (typeof secrets === 'string' ? [secrets] : secrets);
const hmac = (secret: string, data: Buffer): Buffer => createHmac('sha256', secret).update(data).digest();
const timestamped = (t: number | string, body: RawBody): Buffer =>
  Buffer.concat([Buffer.from(`${t}.`, 'utf8'), bytesOf(body)]);

/** The `Webhook-Signature` value: one timestamp, one `v1` per live secret. */
export function signatureHeader(secrets: Secrets, body: RawBody, unixSeconds: number): string {
  const signed = timestamped(unixSeconds, body);
  const values = secretsOf(secrets).map((s) => `v1=${hmac(s, signed).toString('hex')}`);
  return [`t=${unixSeconds}`, ...values].join(',');
}

/** The `X-Therius-Signature` value: one `sha256` per live secret, over the same raw body. */
export function providerSignatureHeader(secrets: Secrets, body: RawBody): string {
  const bytes = bytesOf(body);
  return secretsOf(secrets)
    .map((s) => `sha256=${hmac(s, bytes).toString('hex')}`)
    .join(',');
}

/** Both headers of a delivery, with lower-case names, signed at `nowMs`. */
export function signatureHeaders(secrets: Secrets, body: RawBody, nowMs: number): Record<string, string> {
  return {
    'webhook-signature': signatureHeader(secrets, body, Math.floor(nowMs / 1000)),
    'x-therius-signature': providerSignatureHeader(secrets, body),
  };
}

function sameHex(candidate: string, expected: Buffer): boolean {
  if (!/^[0-9a-f]{64}$/i.test(candidate)) return false;
  return timingSafeEqual(Buffer.from(candidate, 'hex'), expected);
}

/** `k=v` pairs of a signature header; several signatures may be separated by commas or spaces. */
function pairsOf(header: string): [string, string][] {
  return header
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((p) => {
      const i = p.indexOf('=');
      return i < 0 ? [p, ''] : [p.slice(0, i), p.slice(i + 1)];
    });
}

/**
 * True when some `v1` of a `Webhook-Signature` matches for some secret and its `t` is within the tolerance (a
 * replayed old delivery is refused). Compares in constant time.
 */
export function verifyWebhookSignature(
  rawBody: RawBody,
  header: string | undefined | null,
  secret: Secrets,
  o: VerifyOptions = {},
): boolean {
  if (!header) return false;
  const pairs = pairsOf(header);
  const t = pairs.find(([k]) => k === 't')?.[1] ?? '';
  if (!/^\d+$/.test(t)) return false;
  const nowSeconds = (o.now ?? Date.now)() / 1000;
  if (Math.abs(nowSeconds - Number(t)) > (o.toleranceSeconds ?? 300)) return false;
  const signed = timestamped(t, rawBody);
  const candidates = pairs.filter(([k]) => k === 'v1').map(([, v]) => v);
  return secretsOf(secret).some((s) => {
    const expected = hmac(s, signed);
    return candidates.some((c) => sameHex(c, expected));
  });
}

/**
 * True when some `sha256` value of an `X-Therius-Signature` matches. It has no timestamp: a delivery captured
 * once verifies forever, so prefer {@link verifyWebhookSignature}.
 */
export function verifyTheriusSignature(rawBody: RawBody, header: string | undefined | null, secret: Secrets): boolean {
  if (!header) return false;
  const candidates = pairsOf(header)
    .filter(([k]) => k === 'sha256')
    .map(([, v]) => v);
  const body = bytesOf(rawBody);
  return secretsOf(secret).some((s) => {
    const expected = hmac(s, body);
    return candidates.some((c) => sameHex(c, expected));
  });
}
