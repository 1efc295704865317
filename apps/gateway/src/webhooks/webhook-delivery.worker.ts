import { Inject, Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Logger } from 'pino';
import { LOGGER, Metrics } from '@app/observability';
import { decideAttempt, SendOutcome } from './delivery-policy';
import { ClaimedAttempt, WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookSender } from './webhook-sender';
import { WEBHOOK_OPTIONS, WebhookOptions } from './webhooks.options';

const BATCH_SIZE = 20;
/** Lease margin past the request timeout: a claim outlives any send, and lapses soon after a crash. */
const LEASE_MARGIN_SECONDS = 30;

/**
 * Sends due delivery tries. Each replica runs one; tries are claimed with FOR UPDATE SKIP LOCKED and a lease,
 * so replicas never send the same try at the same time and a crashed replica's tries are picked up once the
 * lease lapses. Retry timing is real time (the database clock), never a sandbox clock.
 */
@Injectable()
export class WebhookDeliveryWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private stopped = false;

  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly sender: WebhookSender,
    @Inject(WEBHOOK_OPTIONS) private readonly options: WebhookOptions,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly metrics: Metrics,
  ) {}

  onApplicationBootstrap(): void {
    this.schedule(0);
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  /** New tries were queued: look now instead of at the next poll. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) this.again = true;
    else this.schedule(0);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), ms);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    if (this.running || this.stopped) return;
    let full = false;
    const run = (async () => {
      try {
        const claimed = await this.deliveries.claimDue(BATCH_SIZE, this.leaseSeconds());
        full = claimed.length === BATCH_SIZE;
        const results = await Promise.allSettled(claimed.map((c) => this.deliver(c)));
        // An unrecorded try keeps its lease and is sent again once it lapses (at least once).
        for (const r of results) {
          if (r.status === 'rejected') this.logger.warn({ err: r.reason }, 'Webhook try not recorded; retried later');
        }
      } catch (e) {
        this.logger.warn({ err: e }, 'Webhook worker could not run; will retry');
      }
    })();
    this.running = run;
    await run;
    this.running = undefined;
    const more = full || this.again;
    this.again = false;
    this.schedule(more ? 0 : this.options.pollMs);
  }

  private leaseSeconds(): number {
    return Math.ceil(this.options.timeoutMs / 1000) + LEASE_MARGIN_SECONDS;
  }

  private async deliver(claim: ClaimedAttempt): Promise<void> {
    // Real time on purpose (see the class comment): when the receiver was called.
    const attemptedAt = new Date();
    let outcome: SendOutcome;
    if (claim.endpointDeleted) {
      outcome = { ok: false, responseStatus: null, durationMs: 0, error: 'endpoint deleted', permanent: true };
    } else if (!claim.secret) {
      outcome = { ok: false, responseStatus: null, durationMs: 0, error: 'no signing secret', permanent: true };
    } else {
      outcome = await this.sender.send({
        url: claim.url,
        eventId: claim.eventId,
        body: claim.body,
        secret: claim.secret,
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
    if (outcome.ok) this.logger.info({ ...log, responseStatus: outcome.responseStatus }, 'Webhook delivered');
    else
      this.logger.warn(
        { ...log, responseStatus: outcome.responseStatus, error: outcome.error },
        'Webhook attempt failed',
      );
  }
}
