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

/** A receiver's check, written independently of the gateway's code (the same steps as docs/webhooks.md). */
export function signatureValid(header: string | string[] | undefined, body: string, secret: string): boolean {
  const parts = Object.fromEntries(
    String(header)
      .split(',')
      .map((p) => p.split('=') as [string, string]),
  );
  const t = Number(parts.t);
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest();
  const given = Buffer.from(parts.v1 ?? '', 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
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
  durationMs: number | null;
  attemptedAt: string | null;
  nextAttemptAt: string | null;
  error: string | null;
}
