import { createHmac, timingSafeEqual } from 'node:crypto';
import { INestApplication } from '@nestjs/common';
import { NatsConnection } from 'nats';
import { DataSource } from 'typeorm';
import { uuidv7 } from '@app/clock';
import { Environment, EventEnvelope, EventType } from '@app/contracts';
import { ensureEventsStream } from '@app/messaging';
import { OutboxWriter } from '@app/outbox';

/**
 * Emits a domain event the way a service does: an outbox row written in a transaction, published to the
 * EVENTS stream by that app's relay. `app` is any app with an outbox (the gateway has one too).
 */
export function emit<T extends object>(
  app: INestApplication,
  type: EventType,
  merchantCode: string,
  data: T,
  environment: Environment = 'sandbox',
): Promise<EventEnvelope<T>> {
  return app
    .get(DataSource)
    .transaction((m) => app.get(OutboxWriter).add(m, type, { merchantCode, environment }, data, new Date()));
}

/**
 * A receiver's check, written independently of the gateway's code (the same steps as docs/webhooks.md): any
 * of the `v1` values (one per live secret) may match.
 */
export function signatureValid(header: string | string[] | undefined, body: string, secret: string): boolean {
  const parts = String(header)
    .split(',')
    .map((p) => p.split('=') as [string, string]);
  const t = Number(parts.find(([k]) => k === 't')?.[1]);
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest();
  return parts
    .filter(([k]) => k === 'v1')
    .map(([, v]) => Buffer.from(v ?? '', 'hex'))
    .some((given) => given.length === expected.length && timingSafeEqual(given, expected));
}

/**
 * A delivered body as the event envelope it carries: the provider's names of the same values (`event`,
 * `created_at`, and `payment_code`, `order_code`, `payment_id` in a payment's data) are checked to agree
 * with the envelope and then left out, so a test can compare the rest with the event exactly.
 */
export function envelopeOf(body: string): Record<string, unknown> {
  const { event, created_at, ...envelope } = JSON.parse(body) as Record<string, unknown> & {
    type: string;
    createdAt: string;
    data: Record<string, unknown>;
  };
  if (event !== envelope.type || created_at !== envelope.createdAt) {
    throw new Error(`event/created_at disagree with type/createdAt in ${body}`);
  }
  if (!envelope.type.startsWith('payment.')) return envelope;
  const { payment_code, order_code, payment_id, ...data } = envelope.data;
  if (payment_code !== data.paymentCode || order_code !== data.orderCode || payment_id !== data.id) {
    throw new Error(`payment_code/order_code/payment_id disagree with the payment in ${body}`);
  }
  return { ...envelope, data };
}

/** An envelope published straight to the EVENTS stream, as a service's outbox relay does (message id = event id). */
export async function publishEvent<T extends object>(
  nc: NatsConnection,
  type: EventType,
  merchantCode: string,
  data: T,
): Promise<EventEnvelope<T>> {
  await ensureEventsStream(nc);
  const envelope: EventEnvelope<T> = {
    id: uuidv7(),
    type,
    createdAt: new Date().toISOString(),
    environment: 'sandbox',
    merchantCode,
    data,
  };
  await nc.jetstream().publish(type, Buffer.from(JSON.stringify(envelope)), { msgID: envelope.id });
  return envelope;
}

/** A row of GET /v1/webhook-endpoint/{id}/deliveries. */
export interface Attempt {
  id: string;
  eventId: string;
  eventType: string;
  attempt: number;
  status: 'pending' | 'succeeded' | 'failed' | 'dead';
  responseStatus: number | null;
  responseExcerpt: string | null;
  durationMs: number | null;
  attemptedAt: string | null;
  nextAttemptAt: string | null;
  error: string | null;
}
