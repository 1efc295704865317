import { Inject, Injectable } from '@nestjs/common';
import { contextFromTraceParent, failSpan, inSpan, linkTo, Metrics, SpanKind, tracingOn } from '@app/observability';
import { PeriodicLoop } from '@app/platform';
import { decideAttempt, SendOutcome, unanswered } from './delivery-policy';
import { ClaimedAttempt, WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookSender } from './webhook-sender';
import { WEBHOOK_OPTIONS, WebhookOptions } from './webhooks.options';

const BATCH_SIZE = 20;
/** Lease margin past the request timeout: a claim outlives any send, and lapses soon after a crash. */
const LEASE_MARGIN_SECONDS = 30;

/**
 * Sends due delivery tries, every WEBHOOK_DISPATCH_POLL_MS and at once when tries are queued. Each replica
 * runs one; tries are claimed with FOR UPDATE SKIP LOCKED and a lease, so replicas never send the same try at
 * the same time and a crashed replica's tries are picked up once the lease lapses. Retry timing is real time
 * (the database clock), never a sandbox clock.
 */
@Injectable()
export class WebhookDeliveryLoop extends PeriodicLoop {
  readonly loopName = 'webhook_delivery';

  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly sender: WebhookSender,
    @Inject(WEBHOOK_OPTIONS) private readonly options: WebhookOptions,
    private readonly metrics: Metrics,
  ) {
    super();
  }

  protected everyMs(): number {
    return this.options.pollMs;
  }

  /** One batch of due tries; answers whether the batch was full (more may be due). */
  protected async work(): Promise<boolean> {
    const claimed = await this.deliveries.claimDue(BATCH_SIZE, this.leaseSeconds());
    const results = await Promise.allSettled(claimed.map((c) => this.deliverTraced(c)));
    // An unrecorded try keeps its lease and is sent again once it lapses (at least once).
    for (const r of results) {
      if (r.status === 'rejected') this.log.warn({ err: r.reason }, 'Webhook try not recorded; retried later');
    }
    return claimed.length === BATCH_SIZE;
  }

  private leaseSeconds(): number {
    return Math.ceil(this.options.timeoutMs / 1000) + LEASE_MARGIN_SECONDS;
  }

  /**
   * With tracing on, each try is a span of the loop's run, linked to the context the event was consumed in
   * (stored on the delivery: a resend's tries link to it too).
   */
  private async deliverTraced(claim: ClaimedAttempt): Promise<void> {
    if (!tracingOn()) {
      await this.deliver(claim);
      return;
    }
    const attributes = {
      'webhook.delivery.id': claim.deliveryId,
      'webhook.event.id': claim.eventId,
      'webhook.attempt': claim.attempt,
    };
    const links = linkTo(contextFromTraceParent(claim.traceParent));
    return inSpan('webhook delivery', { kind: SpanKind.CLIENT, attributes, links }, async (span) => {
      if (!(await this.deliver(claim))) failSpan(span, undefined, 'webhook attempt failed');
    });
  }

  /** Sends one try and records it; answers whether the receiver took it. */
  private async deliver(claim: ClaimedAttempt): Promise<boolean> {
    // Real time on purpose (see the class comment): when the receiver was called.
    const attemptedAt = new Date();
    let outcome: SendOutcome;
    if (claim.endpointDeleted) {
      outcome = unanswered(0, 'endpoint_deleted', true);
    } else if (claim.endpointDisabled) {
      outcome = unanswered(0, 'endpoint_disabled', true);
    } else if (!claim.secrets.length) {
      outcome = unanswered(0, 'no_secret', true);
    } else {
      outcome = await this.sender.send({
        url: claim.url,
        eventId: claim.eventId,
        body: claim.body,
        secrets: claim.secrets,
      });
    }
    const decision = decideAttempt(outcome, claim.attempt, this.options.retrySchedule);
    await this.deliveries.complete(claim, outcome, decision, attemptedAt);
    this.metrics.observe('webhook', 'delivery', decision.attempt, outcome.durationMs / 1000);
    const log = {
      deliveryId: claim.deliveryId,
      eventId: claim.eventId,
      attempt: claim.attempt,
      status: decision.attempt,
    };
    if (outcome.ok) this.log.info({ ...log, responseStatus: outcome.responseStatus }, 'Webhook delivered');
    else
      this.log.warn(
        { ...log, responseStatus: outcome.responseStatus, error: outcome.error, detail: outcome.detail },
        'Webhook attempt failed',
      );
    return outcome.ok;
  }
}
