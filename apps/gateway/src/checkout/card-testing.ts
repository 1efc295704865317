import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { Clock } from '@app/clock';
import { CallerContext, CheckoutResult, EventTypes, PaymentLinkResponse, PaymentLinksSubjects } from '@app/contracts';
import { DomainError } from '@app/errors';
import { RpcClient } from '@app/messaging';
import { LOGGER, Metrics } from '@app/observability';
import { OutboxWriter } from '@app/outbox';
import { rateLimited } from '../http/rate-limited';
import { DeclineLog } from './decline-log';

export const CARD_TESTING_LIMITS = Symbol('CARD_TESTING_LIMITS');

export interface CardTestingLimits {
  /** Declines from one client address in the window (CHECKOUT_DECLINES_PER_ADDRESS; 0 is off). */
  perAddress: number;
  /** Declines on one payment link in the window (CHECKOUT_DECLINES_PER_LINK; 0 is off). */
  perLink: number;
  /** CHECKOUT_DECLINE_WINDOW_SECONDS. */
  windowSeconds: number;
}

export type BlockScope = 'address' | 'link';

/** `data.block` of a `payment_link.attempts_blocked` event. */
export interface AttemptsBlocked {
  scope: BlockScope;
  declines: number;
  windowSeconds: number;
  retryAfterSeconds: number;
}

/**
 * The card-testing defence of a payment link's public checkout: declined payments are counted per client
 * address and per link in a sliding window; once either reaches its limit, new attempts from that address
 * or on that link (pay, and a nonce made with the link's client token) answer 429 until the oldest decline
 * leaves the window. Successful payments never count, so a payer who mistypes a card a few times and pays is
 * never held up. The merchant hears of each block through a `payment_link.attempts_blocked` event.
 *
 * The counts live in this replica's memory: with several gateway replicas behind a balancer, an attacker
 * may get up to the limit on each of them before every one of them refuses.
 */
@Injectable()
export class CardTestingDefence {
  private readonly byAddress: DeclineLog;
  private readonly byLink: DeclineLog;

  constructor(
    @Inject(CARD_TESTING_LIMITS) private readonly limits: CardTestingLimits,
    private readonly metrics: Metrics,
    private readonly rpc: RpcClient,
    private readonly outbox: OutboxWriter,
    @InjectDataSource() private readonly db: DataSource,
    private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.byAddress = new DeclineLog(limits.perAddress, limits.windowSeconds * 1000);
    this.byLink = new DeclineLog(limits.perLink, limits.windowSeconds * 1000);
  }

  /** 429 RATE_LIMITED when this address or this link is closed to new attempts. */
  assertOpen(address: string, linkId: string): void {
    const now = this.clock.now().getTime();
    for (const [scope, log, key] of this.logs(address, linkId)) {
      const closed = log.closed(key, now);
      if (!closed) continue;
      this.metrics.checkoutAttemptBlocked(scope);
      const minutes = Math.max(1, Math.ceil(closed.resetSeconds / 60));
      throw rateLimited(
        `Too many declined payments ${scope === 'link' ? 'on this page' : 'from your device'}. For your ` +
          `security, new attempts are paused: try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
        closed,
      );
    }
  }

  /**
   * Runs one attempt on a link (pay or resume) and counts it when it is a decline: a `declined` outcome, or
   * a PAYMENT_DECLINED refusal (a subscription link's first charge).
   */
  async counted(address: string, caller: CallerContext, linkId: string, run: () => Promise<CheckoutResult>) {
    let result: CheckoutResult;
    try {
      result = await run();
    } catch (e) {
      if (e instanceof DomainError && e.code === 'PAYMENT_DECLINED') await this.declined(address, caller, linkId);
      throw e;
    }
    if (result.outcome === 'declined') await this.declined(address, caller, linkId);
    return result;
  }

  private async declined(address: string, caller: CallerContext, linkId: string): Promise<void> {
    const now = this.clock.now().getTime();
    for (const [scope, log, key] of this.logs(address, linkId)) {
      if (log.add(key, now)) await this.announce(caller, linkId, scope, log, log.closed(key, now)!.resetSeconds);
    }
  }

  private logs(address: string, linkId: string): Array<[BlockScope, DeclineLog, string]> {
    return [
      ['address', this.byAddress, address],
      ['link', this.byLink, linkId],
    ];
  }

  /** The `payment_link.attempts_blocked` event to the link's merchant; a failure to write it is only logged. */
  private async announce(
    caller: CallerContext,
    linkId: string,
    scope: BlockScope,
    log: DeclineLog,
    resetSeconds: number,
  ): Promise<void> {
    this.logger.warn({ linkId, scope, requestId: caller.requestId }, 'Checkout attempts blocked: too many declines');
    try {
      const link = await this.rpc.send<PaymentLinkResponse>(PaymentLinksSubjects.get, caller, { id: linkId });
      const block: AttemptsBlocked = {
        scope,
        declines: log.limit,
        windowSeconds: this.limits.windowSeconds,
        retryAfterSeconds: Math.ceil(resetSeconds),
      };
      await this.db.transaction((m) =>
        this.outbox.add(m, EventTypes.paymentLinkAttemptsBlocked, caller, { ...link, block }, this.clock.now()),
      );
    } catch (e) {
      this.logger.error({ err: e, linkId, scope }, 'Could not record the payment_link.attempts_blocked event');
    }
  }
}
