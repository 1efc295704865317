import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { Clock } from '@app/clock';
import {
  AttemptsBlockedView,
  CallerContext,
  CheckoutResult,
  EventTypes,
  PaymentLinkResponse,
  PaymentLinksSubjects,
} from '@app/contracts';
import { DomainError } from '@app/errors';
import { RpcClient } from '@app/messaging';
import { LOGGER, Metrics } from '@app/observability';
import { OutboxWriter } from '@app/outbox';
import { inTransaction } from '@app/database';
import { rateLimited } from '../http/rate-limited';
import { CheckoutAttemptLimit, Closed, Settlement } from './attempt-limit';

export type { BlockScope } from './checkout-attempts.repository';

/** `data.block` of a `payment_link.attempts_blocked` event. */
export type AttemptsBlocked = AttemptsBlockedView;

/**
 * The card-testing defence of a payment link's public checkout. Each pay takes a place per client address
 * and per link before it runs (CheckoutAttemptLimit) and answers 429 when either has none left; the outcome
 * then settles it: a decline (a `declined` outcome, or a subscription link's PAYMENT_DECLINED) counts for the
 * window, a 3DS challenge holds its place until the checkout's resume says how it ended (a challenge never
 * finished counts as a decline once its session ends), success and other refusals give the place back. So a
 * payer who mistypes a card a few times and pays is never held up, and parallel attempts never get past the
 * limit. A nonce made with the link's client token is refused while the link or address is closed. The
 * merchant hears of each block through a `payment_link.attempts_blocked` event.
 */
@Injectable()
export class CardTestingDefence {
  constructor(
    private readonly limit: CheckoutAttemptLimit,
    private readonly metrics: Metrics,
    private readonly rpc: RpcClient,
    private readonly outbox: OutboxWriter,
    @InjectDataSource() private readonly db: DataSource,
    private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** 429 RATE_LIMITED when this address or this link is closed to new attempts. */
  async assertOpen(address: string, linkId: string): Promise<void> {
    if (!this.limit.enabled) return;
    const closed = await this.limit.check(address, linkId);
    if (closed) throw this.refusal(closed);
  }

  /** Runs one pay on a link in a place reserved for it, and settles the place by what the pay answered. */
  async attempt(address: string, caller: CallerContext, linkId: string, run: () => Promise<CheckoutResult>) {
    if (!this.limit.enabled) return run();
    const place = await this.limit.reserve(address, linkId);
    if ('scope' in place) throw this.refusal(place);
    let result: CheckoutResult;
    try {
      result = await run();
    } catch (e) {
      const to = refused(e);
      if (to) await this.settled(caller, linkId, () => this.limit.settle(place.id, to));
      throw e;
    }
    await this.settled(caller, linkId, () => this.limit.settle(place.id, this.settlementOf(result)));
    return result;
  }

  /**
   * Runs the checkout's resume of a 3DS session: it finishes an attempt already made, so it is never refused;
   * it settles that attempt's place (a declined or expired challenge counts as a decline).
   */
  async resumed(
    address: string,
    caller: CallerContext,
    linkId: string,
    sessionId: string,
    run: () => Promise<CheckoutResult>,
  ) {
    if (!this.limit.enabled) return run();
    const settle = (to: Settlement) => this.limit.settleSession(address, linkId, sessionId, to);
    let result: CheckoutResult;
    try {
      result = await run();
    } catch (e) {
      // An expired session is a challenge abandoned: a decline. Any other refusal (not finished yet, not this
      // link's session, already used) leaves the attempt as it is.
      const declined = e instanceof DomainError && (e.code === 'SESSION_EXPIRED' || e.code === 'PAYMENT_DECLINED');
      if (declined) await this.settled(caller, linkId, () => settle({ kind: 'declined' }));
      throw e;
    }
    const to = this.settlementOf(result);
    if (to.kind !== 'challenge') await this.settled(caller, linkId, () => settle(to));
    return result;
  }

  private settlementOf(result: CheckoutResult): Settlement {
    if (result.outcome === 'declined') return { kind: 'declined' };
    const action = result.payment?.actionRequired;
    if (result.outcome !== 'requires_action' || !action?.sessionId) return { kind: 'released' };
    // The session's life as payments set it, on this gateway's clock (a sandbox clock may run ahead).
    const lasts = Date.parse(action.expiresAt) - Date.parse(result.payment!.createdAt);
    const endsAt = new Date(this.clock.now().getTime() + Math.max(0, Number.isFinite(lasts) ? lasts : 0));
    return { kind: 'challenge', sessionId: action.sessionId, endsAt };
  }

  /** A settlement failure never changes the payer's answer: an unsettled place lapses on its own. */
  private async settled(caller: CallerContext, linkId: string, settle: () => Promise<Closed[]>) {
    try {
      for (const closed of await settle()) await this.announce(caller, linkId, closed);
    } catch (e) {
      this.logger.error({ err: e, linkId }, 'Could not settle a checkout attempt of the card-testing limit');
    }
  }

  private refusal(closed: Closed): DomainError {
    this.metrics.checkoutAttemptBlocked(closed.scope);
    const minutes = Math.max(1, Math.ceil(closed.resetSeconds / 60));
    return rateLimited(
      `Too many declined payments ${closed.scope === 'link' ? 'on this page' : 'from your device'}. For your ` +
        `security, new attempts are paused: try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      closed,
    );
  }

  /** The `payment_link.attempts_blocked` event to the link's merchant; a failure to write it is only logged. */
  private async announce(caller: CallerContext, linkId: string, { scope, limit, resetSeconds }: Closed) {
    this.logger.warn({ linkId, scope, requestId: caller.requestId }, 'Checkout attempts blocked: too many declines');
    try {
      const link = await this.rpc.send<PaymentLinkResponse>(PaymentLinksSubjects.get, caller, { id: linkId });
      const block: AttemptsBlocked = {
        scope,
        declines: limit,
        windowSeconds: this.limit.limits.windowSeconds,
        retryAfterSeconds: Math.ceil(resetSeconds),
      };
      await inTransaction(this.db, (m) =>
        this.outbox.add(m, EventTypes.paymentLinkAttemptsBlocked, caller, { ...link, block }, this.clock.now()),
      );
    } catch (e) {
      this.logger.error({ err: e, linkId, scope }, 'Could not record the payment_link.attempts_blocked event');
    }
  }
}

/**
 * How a pay that threw settles its place: a declined charge counts, any other refusal gives the place back
 * (nothing was charged); a timeout or an unexpected error leaves it in flight, since the charge may have
 * happened, until it lapses.
 */
function refused(e: unknown): Settlement | null {
  if (!(e instanceof DomainError) || e.code === 'UPSTREAM_TIMEOUT') return null;
  return e.code === 'PAYMENT_DECLINED' ? { kind: 'declined' } : { kind: 'released' };
}
