import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '@app/clock';
import { CallerContext, PaymentResponse, PurchaseRequest } from '@app/contracts';
import { GroupedTransactions } from '@app/database';
import { checkIdempotencyKey, IdempotencyService, UseCase } from '@app/idempotency';
import { traceParentOf } from '@app/observability';
import { AuthorizationOutcome } from '../connector/provider-connector';
import { isAcquirerFailure, isOutcomeUnknown } from '../connector/acquirer-call';
import { PaymentIntent } from '../payment/payment.entity';
import { CrashPoints } from '../reservation/crash-points';
import { RoutingService } from '../routing/routing.service';
import { AcquirerCascade } from './acquirer-cascade';
import { AuthorizationRecord } from './authorization-record';
import { preparePurchase } from './purchase-request';
import { PurchaseReservation, Reserved } from './purchase-reservation';

/**
 * POST /v1/payment/purchase and /authorization as reserve, call, record: a short transaction
 * reserves (the Idempotency-Key in progress, the payment inserted as reserved, which holds the order code,
 * and an attempt row naming the request reference); the acquirer is called with no transaction open and no
 * pool connection held (one cascade on a `retry` decline moves the attempt to the next connection first);
 * a second short transaction records the answer, the payment and its event. A call that fails (503/504)
 * releases the reservation: nothing is recorded, the key and the order code are free again. A call whose
 * answer was lost after sending (504, outcome unknown) keeps it, marked, until the provider's webhook or the
 * recovery sweep's status sync records the answer; a retry with the same key waits, then replays it.
 */
@UseCase({ operation: 'payment.purchase', idempotency: 'none' })
export class PurchaseUseCase {
  /**
   * Reserves and records of concurrent purchases share transactions (group commit, at most 8 groups of 32
   * in flight): one commit for many under load, one each when idle. Both works only write the database.
   */
  private readonly grouped: GroupedTransactions;

  constructor(
    @InjectDataSource() db: DataSource,
    private readonly idempotency: IdempotencyService,
    private readonly routing: RoutingService,
    private readonly reservations: PurchaseReservation,
    private readonly cascade: AcquirerCascade,
    private readonly records: AuthorizationRecord,
    private readonly crash: CrashPoints,
    private readonly clock: Clock,
  ) {
    this.grouped = new GroupedTransactions(db, 8, 32);
  }

  /** `routing.declinedLast`: billing's retries name the connections that declined the previous attempt. */
  async run(
    ctx: CallerContext,
    body: PurchaseRequest,
    intent: PaymentIntent,
    routing: { declinedLast?: readonly string[] } = {},
  ): Promise<PaymentResponse> {
    const { amount, method } = preparePurchase(body, intent);
    // A bad request (no key in production) is told as such, before routing can say NO_CONNECTION.
    checkIdempotencyKey(ctx.idempotencyKey, ctx.environment === 'production');
    // Routing reads happen before the transaction: a transaction never waits for a second pool connection.
    const connections = await this.routing.route(ctx, {
      currency: amount.currency,
      method,
      connectionCode: body.connectionCode,
      declinedLast: routing.declinedLast,
    });
    let reserved: Reserved;
    // Taken here, in the request's context: a grouped transaction runs its works in its group's.
    const traceParent = traceParentOf();
    try {
      reserved = await this.grouped.run((m) =>
        this.reservations.reserve(m, ctx, body, intent, method, amount, connections[0], traceParent),
      );
    } catch (e) {
      // A replay answers what the original answered, whatever this attempt ran into.
      const replay = await this.idempotency.earlierAnswer<PaymentResponse>(ctx, intent, body, e);
      if (replay) return replay;
      throw e;
    }
    this.crash.at('before_acquirer');
    let outcome: AuthorizationOutcome;
    try {
      outcome = await this.cascade.authorize(ctx, reserved, connections, body);
    } catch (e) {
      if (isAcquirerFailure(e)) await this.reservations.release(ctx, reserved);
      // The provider may have charged: the reservation (payment, attempt, key) stays for its webhook or sync.
      if (isOutcomeUnknown(e)) await this.reservations.keepUnknown(reserved);
      throw e;
    }
    this.crash.at('after_acquirer');
    return this.grouped.run((m) =>
      this.records.record(m, ctx, reserved.attempt.id, reserved.payment, outcome, this.clock.now(ctx), {
        card: reserved.card,
        body,
        sessionId: reserved.attempt.detail.kind === 'authorize' ? reserved.attempt.detail.sessionId : undefined,
      }),
    );
  }
}
