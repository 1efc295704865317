import { createHmac, timingSafeEqual } from 'node:crypto';

import type { WebhookEvent } from './generated/events';

export type { WebhookEvent } from './generated/events';

export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

export interface VerifyOptions {
  /** How far the `t` of Webhook-Signature may be from now (default 300 s). */
  toleranceSeconds?: number;
  /** Now in milliseconds (default Date.now). */
  now?: () => number;
}

type RawBody = string | Uint8Array;
/** During a secret roll, pass the new and the old secret: a signature by either is accepted. */
type Secrets = string | readonly string[];

const bytesOf = (body: RawBody): Buffer => (typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body));
const secretsOf = (secret: Secrets): readonly string[] => (typeof secret === 'string' ? [secret] : secret);

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
 * `Webhook-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`: true when some v1
 * matches for some secret and `t` is within the tolerance (a replayed old delivery is refused).
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
  const signed = Buffer.concat([Buffer.from(`${t}.`, 'utf8'), bytesOf(rawBody)]);
  const candidates = pairs.filter(([k]) => k === 'v1').map(([, v]) => v);
  return secretsOf(secret).some((s) => {
    const expected = createHmac('sha256', s).update(signed).digest();
    return candidates.some((c) => sameHex(c, expected));
  });
}

/**
 * `X-Therius-Signature: sha256=<hex HMAC-SHA256(secret, raw body)>`: true when some sha256 value matches. It has
 * no timestamp: a delivery captured once verifies forever, so prefer {@link verifyWebhookSignature}.
 */
export function verifyTheriusSignature(rawBody: RawBody, header: string | undefined | null, secret: Secrets): boolean {
  if (!header) return false;
  const candidates = pairsOf(header)
    .filter(([k]) => k === 'sha256')
    .map(([, v]) => v);
  const body = bytesOf(rawBody);
  return secretsOf(secret).some((s) => {
    const expected = createHmac('sha256', s).update(body).digest();
    return candidates.some((c) => sameHex(c, expected));
  });
}

type HeaderBag = Headers | Record<string, string | string[] | undefined>;

function headerOf(headers: HeaderBag, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const bag = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(bag).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : bag[key];
  return Array.isArray(value) ? value.join(',') : value;
}

export interface ConstructOptions extends VerifyOptions {
  /**
   * Also accept a delivery that carries only `X-Therius-Signature` (default false). That header signs the body
   * without a timestamp, so a delivery captured once, however long ago, verifies again: a replay. Turn this on
   * only behind something that sheds deliveries without `Webhook-Signature` (the platform sends it on every
   * one), and then refuse an event id already handled.
   */
  acceptTheriusSignature?: boolean;
}

/**
 * The event of a delivery whose signature checks out, else a thrown {@link WebhookVerificationError}. It
 * checks `Webhook-Signature`, which also bounds the delivery's age (`toleranceSeconds`), so an old delivery
 * sent again is refused. A delivery with only `X-Therius-Signature` (no timestamp: a replay verifies) is
 * refused unless `acceptTheriusSignature` is set. Pass the raw body exactly as received, before JSON parsing.
 * The event's `type` narrows its `data`: `if (event.type === 'invoice.paid') event.data.paidAt`.
 */
export function constructWebhookEvent(
  rawBody: RawBody,
  headers: HeaderBag,
  secret: Secrets,
  o: ConstructOptions = {},
): WebhookEvent {
  const standard = headerOf(headers, 'webhook-signature');
  const therius = headerOf(headers, 'x-therius-signature');
  if (!standard && !(therius && o.acceptTheriusSignature)) {
    throw new WebhookVerificationError(
      therius
        ? 'The delivery carries no Webhook-Signature; X-Therius-Signature has no timestamp, so it is accepted ' +
            'only with { acceptTheriusSignature: true }'
        : 'The delivery carries no Webhook-Signature header',
    );
  }
  const ok = standard
    ? verifyWebhookSignature(rawBody, standard, secret, o)
    : verifyTheriusSignature(rawBody, therius, secret);
  if (!ok) throw new WebhookVerificationError('The webhook signature does not match (or its timestamp is too old)');
  const text = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8');
  return JSON.parse(text) as WebhookEvent;
}
