import {
  WebhookDeliveryResponse,
  WebhookEndpointResponse,
  WebhookObjectView,
  WebhookSecretResponse,
} from '@app/contracts';
import { AttemptRow } from './webhook-delivery.types';
import { AccountSecret, EndpointRow } from './webhook-endpoints.repository';

/** How long a rolled secret keeps signing when the roll does not say. */
export const DEFAULT_SECRET_GRACE_SECONDS = 24 * 3600;

export const iso = (d: Date | string | null): string | null => (d === null ? null : new Date(d).toISOString());

export const toEndpointView = (e: EndpointRow): WebhookEndpointResponse => ({
  id: e.id,
  url: e.url,
  events: e.events,
  environment: e.environment,
  description: e.description ?? null,
  disabled: e.disabled ?? false,
  createdAt: iso(e.createdAt)!,
});

export const toSecretView = (s: AccountSecret): WebhookSecretResponse => ({
  secret: s.secret,
  createdAt: iso(s.createdAt)!,
  previousSecretExpiresAt: iso(s.previousSecretExpiresAt),
});

/** The aggregates whose events name an object (EventAggregate); a ping names none. */
const OBJECT_TYPES = new Set(['payment', 'payment_link', 'payment_method', 'subscription', 'invoice']);

function objectOf(a: AttemptRow): WebhookObjectView | null {
  const type = a.eventType.split('.')[0];
  return OBJECT_TYPES.has(type) && a.objectId ? { type, id: a.objectId } : null;
}

/** `endpointEnabled`: a disabled endpoint's deliveries cannot be resent (409 until it is enabled). */
export const toDeliveryView = (a: AttemptRow, endpointEnabled = true): WebhookDeliveryResponse => ({
  id: a.id,
  eventId: a.eventId,
  eventType: a.eventType,
  object: objectOf(a),
  deliveryId: a.deliveryId,
  deliveryStatus: a.deliveryStatus,
  resendable: endpointEnabled && a.deliveryStatus !== 'succeeded' && a.latest,
  attempt: a.attempt,
  status: a.status,
  responseStatus: a.responseStatus,
  responseExcerpt: a.responseExcerpt,
  durationMs: a.durationMs,
  attemptedAt: iso(a.attemptedAt),
  nextAttemptAt: iso(a.nextAttemptAt),
  error: a.error,
});
