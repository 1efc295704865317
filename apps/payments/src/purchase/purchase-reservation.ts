import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Clock, uuidv7 } from '@app/clock';
import { CallerContext, PaymentMethod, PurchaseRequest } from '@app/contracts';
import { inTransaction } from '@app/database';
import { IdempotencyService } from '@app/idempotency';
import { Amount } from '@app/money';
import { AuthorizationOutcome } from '../connector/provider-connector';
import { requestReference } from '../connector/request-reference';
import { PaymentEntity, PaymentIntent } from '../payment/payment.entity';
import { PaymentRepository } from '../payment/payment.repository';
import { AcquirerAttempt } from '../reservation/acquirer-attempt';
import { AcquirerAttemptRepository } from '../reservation/acquirer-attempt.repository';
import { ReservationRelease } from '../reservation/reservation-release';
import { ConnectionEntity } from '../routing/connection.entity';
import { APM_PORT, ApmPort } from './apm.port';
import { ResolvedCard } from '../card/instrument';
import { InstrumentResolver } from './instrument.resolver';
import { newPayment } from './new-payment';
import { randomToken } from '../vault/random-token';

/** A purchase whose acquirer call may start: its payment reserved, its attempt row and key in progress. */
export interface Reserved {
  payment: PaymentEntity;
  attempt: AcquirerAttempt;
  card?: ResolvedCard;
  requestHash?: string;
}

/**
 * The reserve step of a purchase or authorization and what undoes it: the Idempotency-Key in progress, the
 * payment inserted as reserved (which holds the order code) and an attempt row naming the request reference;
 * a cascade's next connection takes the attempt over; a call that recorded nothing releases all of it.
 */
@Injectable()
export class PurchaseReservation {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly idempotency: IdempotencyService,
    private readonly instruments: InstrumentResolver,
    private readonly payments: PaymentRepository,
    private readonly attempts: AcquirerAttemptRepository,
    private readonly releases: ReservationRelease,
    private readonly clock: Clock,
    @Inject(APM_PORT) private readonly apm: ApmPort,
  ) {}

  async reserve(
    m: EntityManager,
    ctx: CallerContext,
    body: PurchaseRequest,
    intent: PaymentIntent,
    method: PaymentMethod,
    amount: Amount,
    connection: ConnectionEntity,
    traceParent: string | null,
  ): Promise<Reserved> {
    // One batch, BEGIN to COMMIT (a nonce card aside): the key's row, the payment and its attempt, all deferred,
    // so the transaction never waits on this process. The unique indexes decide: a key with a row already
    // (KeyTaken, see PurchaseUseCase.run), an order code held by a live or reserved payment (409
    // DUPLICATE_ORDER_CODE) or a taken paymentCode (409 DUPLICATE_PAYMENT_CODE) fail the commit and roll the
    // rest back.
    const requestHash = await this.idempotency.hold(m, ctx, intent, body);
    if (method !== 'card') this.apm.validate(method, body.apm, body.amount, ctx);
    const now = this.clock.now(ctx);
    const card = method === 'card' ? await this.instruments.resolveInstrument(ctx, body.card!, m) : undefined;
    const payment = newPayment(ctx, body, intent, method, amount, card, connection, now);
    // With tracing on, the hold-expiry run that may void it one day links to this request.
    payment.traceParent = traceParent;
    const attempt = this.attemptFor(ctx, payment, connection, requestHash, [], traceParent);
    await this.payments.insertReserved(m, payment);
    await this.attempts.insert(m, attempt);
    return { payment, attempt, card, requestHash };
  }

  /** Before the cascade's next call: its attempt row replaces the answered one, naming the decline before it. */
  async moveAttempt(
    ctx: CallerContext,
    r: Reserved,
    connection: ConnectionEntity,
    declined: AuthorizationOutcome,
  ): Promise<void> {
    const next = this.attemptFor(
      ctx,
      r.payment,
      connection,
      r.requestHash,
      [
        ...(r.attempt.detail.kind === 'authorize' ? r.attempt.detail.earlier : []),
        { ...r.payment.attempts[r.payment.attempts.length - 1], outcome: 'declined', declined },
      ],
      r.attempt.traceParent ?? null,
      r.attempt.detail.kind === 'authorize' ? r.attempt.detail.sessionId : undefined,
    );
    await inTransaction(this.db, async (m) => {
      await this.attempts.settle(m, r.attempt.id);
      await this.attempts.insert(m, next);
    });
    r.attempt = next;
  }

  /**
   * The call's answer was lost after it was sent (the provider may have charged): everything stays reserved,
   * the attempt marked, for the provider's webhook or the recovery sweep's status sync to record.
   */
  keepUnknown(r: Reserved): Promise<void> {
    return this.attempts.markUnknown(r.attempt.id);
  }

  /** Nothing was recorded: the reserved payment, its attempt and its key go, so the same request can retry. */
  release(ctx: CallerContext, r: Reserved): Promise<void> {
    return this.releases.afterFailedCall(ctx, r.attempt, async (m) => {
      if (r.card?.source === 'nonceData') await this.instruments.restoreNonce(m, ctx, r.card);
    });
  }

  private attemptFor(
    ctx: CallerContext,
    payment: PaymentEntity,
    connection: ConnectionEntity,
    requestHash: string | undefined,
    earlier: Extract<AcquirerAttempt['detail'], { kind: 'authorize' }>['earlier'],
    traceParent: string | null,
    sessionId?: string,
  ): AcquirerAttempt {
    return {
      id: uuidv7(),
      paymentId: payment.id,
      merchantCode: ctx.merchantCode,
      environment: ctx.environment,
      operation: payment.intent,
      requestReference: requestReference(ctx, payment.intent, requestHash, connection.connectionCode),
      connectionCode: connection.connectionCode,
      acquirer: connection.acquirer,
      idempotencyKey: ctx.idempotencyKey ?? null,
      // One 3DS session id per payment, whichever connection answers: the provider's return URL names it.
      detail: {
        kind: 'authorize',
        connectionName: connection.connectionName,
        earlier,
        sessionId: sessionId ?? randomToken('ses_'),
      },
      traceParent,
    };
  }
}
