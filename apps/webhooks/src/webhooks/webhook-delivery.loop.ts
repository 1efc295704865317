import { Inject, Injectable } from '@nestjs/common';
import { contextFromTraceParent, failSpan, inSpan, linkTo, Metrics, SpanKind, tracingOn } from '@app/observability';
import { PeriodicLoop } from '@app/platform';
import { decideAttempt, SendOutcome, unanswered } from './delivery-policy';
import { DEFAULT_AGENT_LIMITS } from './target-agents';
import { LOOKUP_TIMEOUT_MS } from './target-guard';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { AttemptResult, ClaimedAttempt } from './webhook-delivery.types';
import { WebhookSender } from './webhook-sender';
import { WEBHOOK_OPTIONS, WebhookOptions } from './webhooks.options';

/** Tries one replica has claimed and not yet recorded, at most. */
export const MAX_IN_FLIGHT = 64;
/** A claim waits until this many tries can be taken (or the loop's tick): claims come in batches, not one by one. */
const MIN_CLAIM = 16;
/** Lease margin past the longest a claimed try can take: a claim outlives any send, and lapses soon after a crash. */
const LEASE_MARGIN_SECONDS = 30;

/**
 * Sends due delivery tries, every WEBHOOK_DISPATCH_POLL_MS and at once when tries are queued. Each replica
 * runs one; tries are claimed with FOR UPDATE SKIP LOCKED and a lease, so replicas never send the same try at
 * the same time and a crashed replica's tries are picked up once the lease lapses. Retry timing is real time
 * (the database clock), never a sandbox clock.
 *
 * It is a pipeline: up to MAX_IN_FLIGHT tries are in flight at once (at most the agent's sockets per target
 * on the wire to one endpoint, the rest waiting for one of them), more are claimed as soon as MIN_CLAIM have
 * ended, and ended tries are recorded together, in one statement per group that ended while the previous group
 * was being written.
 */
@Injectable()
export class WebhookDeliveryLoop extends PeriodicLoop {
  readonly loopName = 'webhook_delivery';
  private inFlight = 0;
  /** The last claim was full, or tries were queued since: more may be due. */
  private moreDue = true;
  private readonly sending = new Set<Promise<void>>();
  private ended: AttemptResult[] = [];
  private recording?: Promise<void>;

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

  /** Tries were queued (or brought forward): claim them now. */
  override kick(): void {
    this.moreDue = true;
    super.kick();
  }

  /** Claims as many due tries as there is room for and starts them; answers whether the claim was full. */
  protected async work(): Promise<boolean> {
    const room = MAX_IN_FLIGHT - this.inFlight;
    if (room < MIN_CLAIM) return false;
    this.moreDue = false;
    const claimed = await this.deliveries.claimDue(room, this.leaseSeconds());
    if (claimed.length === room) this.moreDue = true;
    for (const claim of claimed) this.start(claim);
    return claimed.length === room;
  }

  /** After the last run: waits for the tries in flight and records them (the database is still open). */
  override async beforeApplicationShutdown(): Promise<void> {
    await super.beforeApplicationShutdown();
    while (this.sending.size) await Promise.allSettled([...this.sending]);
    await this.recording;
  }

  /**
   * The longest a claimed try can take: its DNS lookup, then waiting for one of its target's sockets behind the
   * other tries in flight to the same target, then its own timeout.
   */
  private leaseSeconds(): number {
    const rounds = Math.ceil(MAX_IN_FLIGHT / DEFAULT_AGENT_LIMITS.socketsPerTarget);
    return Math.ceil((LOOKUP_TIMEOUT_MS + rounds * this.options.timeoutMs) / 1000) + LEASE_MARGIN_SECONDS;
  }

  private start(claim: ClaimedAttempt): void {
    this.inFlight++;
    const sent: Promise<void> = this.deliverTraced(claim)
      .then((result) => this.record(result))
      .catch((e: unknown) => this.log.warn({ err: e }, 'Webhook try not sent; retried once its lease lapses'))
      .finally(() => {
        this.sending.delete(sent);
        this.inFlight--;
        if (this.moreDue && MAX_IN_FLIGHT - this.inFlight >= MIN_CLAIM) this.kick();
      });
    this.sending.add(sent);
  }

  /** Queues an ended try for the next write; writes unless a write is going on (it takes the queue after it). */
  private record(result: AttemptResult): void {
    this.ended.push(result);
    this.recording ??= this.writeEnded();
  }

  private async writeEnded(): Promise<void> {
    try {
      while (this.ended.length) {
        const batch = this.ended;
        this.ended = [];
        try {
          await this.deliveries.recordAll(batch);
          for (const r of batch) this.logged(r);
        } catch (e) {
          // An unrecorded try keeps its lease and is sent again once it lapses (at least once).
          this.log.warn({ err: e, tries: batch.length }, 'Webhook tries not recorded; retried later');
        }
      }
    } finally {
      // In the same turn as the check that found the queue empty: a try that ends later starts a new write.
      this.recording = undefined;
    }
  }

  /**
   * With tracing on, each try is a span of the loop's run, linked to the context the event was consumed in
   * (stored on the delivery: a resend's tries link to it too).
   */
  private async deliverTraced(claim: ClaimedAttempt): Promise<AttemptResult> {
    if (!tracingOn()) return this.deliver(claim);
    const attributes = {
      'webhook.delivery.id': claim.deliveryId,
      'webhook.event.id': claim.eventId,
      'webhook.attempt': claim.attempt,
    };
    const links = linkTo(contextFromTraceParent(claim.traceParent));
    return inSpan('webhook delivery', { kind: SpanKind.CLIENT, attributes, links }, async (span) => {
      const result = await this.deliver(claim);
      if (!result.outcome.ok) failSpan(span, undefined, 'webhook attempt failed');
      return result;
    });
  }

  /** Sends one try and decides what follows it. */
  private async deliver(claim: ClaimedAttempt): Promise<AttemptResult> {
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
    return { claim, outcome, decision, attemptedAt };
  }

  private logged({ claim, outcome, decision }: AttemptResult): void {
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
  }
}
