import { DeliveryError, WebhookEnvelope } from '@app/contracts';
import { AttemptDecision, SendOutcome } from './delivery-policy';
import { AttemptStatus, DeliveryStatus } from './webhook-delivery.entity';

/** What WebhookDeliveriesRepository reads and writes of deliveries and their tries. */

/** One row of `GET /v1/webhook-endpoint/{id}/deliveries`. */
export interface AttemptRow {
  id: string;
  eventId: string;
  eventType: string;
  attempt: number;
  status: AttemptStatus;
  deliveryId: string;
  deliveryStatus: DeliveryStatus;
  /** The delivery's newest try: a resend acts on it. */
  latest: boolean;
  /** The id of the object the event's data carries (a payment_method event's: its token); null without one. */
  objectId: string | null;
  responseStatus: number | null;
  responseExcerpt: string | null;
  durationMs: number | null;
  attemptedAt: Date | null;
  nextAttemptAt: Date | null;
  error: DeliveryError | null;
}

/** A try the worker holds a lease on, with what it needs to send it. */
export interface ClaimedAttempt {
  id: string;
  attempt: number;
  deliveryId: string;
  eventId: string;
  url: string;
  body: string;
  /**
   * The endpoint's live secrets, or the account's for a payment's webhookUrl: the current one first, then the
   * one it replaced while that is still in its grace period. Empty when none can be opened.
   */
  secrets: string[];
  endpointDeleted: boolean;
  endpointDisabled: boolean;
  /** The context the event was consumed in (null with tracing off): the try's span links to it. */
  traceParent: string | null;
}

/** How one claimed try ended, to be recorded. */
export interface AttemptResult {
  claim: ClaimedAttempt;
  outcome: SendOutcome;
  decision: AttemptDecision;
  /** Real time: when the receiver was called. */
  attemptedAt: Date;
}

/** An event to queue deliveries of: its body as receivers get it and its targets. */
export interface QueuedEvent {
  envelope: WebhookEnvelope;
  body: string;
  targets: DeliveryTarget[];
  traceParent: string | null;
}

export interface DeliveryTarget {
  target: string;
  endpointId: string | null;
  url: string;
}
