import type { WebhookEvent } from './generated/events';
import {
  type RawBody,
  type Secrets,
  type VerifyOptions,
  verifyTheriusSignature,
  verifyWebhookSignature,
} from './signature';

export type { WebhookEvent } from './generated/events';
export type { VerifyOptions } from './signature';
export { verifyTheriusSignature, verifyWebhookSignature } from './signature';

export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
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
