import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Clock, uuidv7 } from '@app/clock';
import { CallerContext, PaymentMethod, PaymentResponse, PurchaseRequest } from '@app/contracts';
import { GroupedTransactions, pipelinedTransaction } from '@app/database';
import { Amount } from '@app/money';
import { AcquirerOutcome } from '../connector/connector';
import { AcquirerCalls, isAcquirerFailure } from '../connector/acquirer-call';
import { ConnectorRegistry } from '../connector/connector.registry';
import { requestReference } from '../connector/request-reference';
import { IdempotencyService } from '@app/idempotency';
import { PaymentEntity, PaymentIntent } from '../payment/payment.entity';
import { PaymentRepository } from '../payment/payment.repository';
import { AcquirerAttempt } from '../reservation/acquirer-attempt';
import { AcquirerAttemptRepository } from '../reservation/acquirer-attempt.repository';
import { CrashPoints } from '../reservation/crash-points';
import { ConnectionEntity } from '../routing/connection.entity';
import { RoutingService } from '../routing/routing.service';
import { APM_PORT, ApmPort } from './apm.port';
import { AuthorizationRecord } from './authorization-record';
import { ResolvedCard } from './instrument';
import { InstrumentResolver } from './instrument.resolver';
import { newPayment } from './new-payment';
import { preparePurchase } from './purchase-request';

/** A purchase whose acquirer call may start: its payment reserved, its attempt row and key in progress. */
interface Reserved {
  payment: PaymentEntity;
  attempt: AcquirerAttempt;
  card?: ResolvedCard;
  requestHash?: string;
}

/**
 * POST /v1/payment/purchase and /authorization as reserve, call, record (STYLE §9): a short transaction
 * reserves (the Idempotency-Key in progress, the payment inserted as reserved, which holds the order code,
 * and an attempt row naming the request reference); the acquirer is called with no transaction open and no
 * pool connection held (one cascade on a `retry` decline moves the attempt to the next connection first);
 * a second short transaction records the answer, the payment and its event. A call that fails (503/504)
 * releases the reservation: nothing is recorded, the key and the order code are free again.
 */
@Injectable()
export class PurchaseUseCase {
  /**
   * Reserves and records of concurrent purchases share transactions (group commit, at most 8 groups of 32
   * in flight): one commit for many under load, one each when idle. Both works only write the database.
   */
  private readonly grouped: GroupedTransactions;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly idempotency: IdempotencyService,
    private readonly instruments: InstrumentResolver,
    private readonly routing: RoutingService,
    private readonly connectors: ConnectorRegistry,
    private readonly acquirer: AcquirerCalls,
    private readonly payments: PaymentRepository,
    private readonly attempts: AcquirerAttemptRepository,
    private readonly records: AuthorizationRecord,
    private readonly crash: CrashPoints,
    private readonly clock: Clock,
    @Inject(APM_PORT) private readonly apm: ApmPort,
  ) {
    this.grouped = new GroupedTransactions(db, 8, 32);
  }

  async run(ctx: CallerContext, body: PurchaseRequest, intent: PaymentIntent): Promise<PaymentResponse> {
    const { amount, method } = preparePurchase(body, intent);
    // Routing reads happen before the transaction: a transaction never waits for a second pool connection.
    const connections = await this.routing.route(ctx, {
      currency: amount.currency,
      method,
      connectionCode: body.connectionCode,
    });
    let reserved: Reserved;
    try {
      reserved = await this.grouped.run((m) => this.reserve(m, ctx, body, intent, method, amount, connections[0]));
    } catch (e) {
      // A replay answers what the original answered, whatever this attempt ran into.
      const replay = await this.idempotency.earlierAnswer<PaymentResponse>(ctx, intent, body, e);
      if (replay) return replay;
      throw e;
    }
    this.crash.at('before_acquirer');
    let outcome: AcquirerOutcome;
    try {
      outcome = await this.authorize(ctx, reserved, connections, body);
    } catch (e) {
      if (isAcquirerFailure(e)) await this.release(ctx, reserved);
      throw e;
    }
    this.crash.at('after_acquirer');
    return this.grouped.run((m) =>
      this.records.record(m, ctx, reserved.attempt.id, reserved.payment, outcome, this.clock.now(ctx), {
        card: reserved.card,
        body,
      }),
    );
  }

  private async reserve(
    m: EntityManager,
    ctx: CallerContext,
    body: PurchaseRequest,
    intent: PaymentIntent,
    method: PaymentMethod,
    amount: Amount,
    connection: ConnectionEntity,
  ): Promise<Reserved> {
    // One batch, BEGIN to COMMIT (a nonce card aside): the key's row, the payment and its attempt, all deferred,
    // so the transaction never waits on this process. The unique indexes decide: a key with a row already
    // (KeyTaken, see run), an order code held by a live or reserved payment (409 DUPLICATE_ORDER_CODE) or a
    // taken paymentCode (409 DUPLICATE_PAYMENT_CODE) fail the commit and roll the rest back.
    const requestHash = await this.idempotency.hold(m, ctx, intent, body);
    if (method !== 'card') this.apm.validate(method, body.apm, body.amount, ctx);
    const now = this.clock.now(ctx);
    const card = method === 'card' ? await this.instruments.resolveInstrument(ctx, body.card!, m) : undefined;
    const payment = newPayment(ctx, body, intent, method, amount, card, connection, now);
    const attempt = this.attemptFor(ctx, payment, connection, requestHash, []);
    await this.payments.insertReserved(m, payment);
    await this.attempts.insert(m, attempt);
    return { payment, attempt, card, requestHash };
  }

  /** Tries the connections in order; only a decline whose recovery action is `retry` moves on (cascade). */
  private async authorize(
    ctx: CallerContext,
    r: Reserved,
    connections: ConnectionEntity[],
    body: PurchaseRequest,
  ): Promise<AcquirerOutcome> {
    const { payment, card } = r;
    let outcome: AcquirerOutcome | undefined;
    for (const [i, connection] of connections.entries()) {
      if (i > 0) await this.moveAttempt(ctx, r, connection, outcome!);
      payment.connectionCode = connection.connectionCode;
      payment.connectionName = connection.connectionName;
      payment.acquirer = connection.acquirer;
      const connector = this.connectors.get(connection.acquirer);
      const about = { acquirer: connection.acquirer, operation: payment.intent, paymentId: payment.id };
      outcome = await this.acquirer.call(about, () =>
        connector.authorize({
          paymentId: payment.id,
          reference: r.attempt.requestReference,
          amount: { currency: payment.currency, value: payment.amountValue, exponent: payment.exponent },
          capture: payment.intent === 'purchase',
          paymentMethod: payment.paymentMethod as PaymentMethod,
          card,
          initiator: body.card?.cardOnFile?.initiator ?? 'cardholder',
          networkTransactionId: body.card?.networkTransactionId ?? card?.networkTransactionId ?? undefined,
        }),
      );
      payment.attempts.push({
        connectionCode: connection.connectionCode,
        outcome: outcome.kind,
        ...(outcome.kind === 'declined' ? { reasonCode: outcome.refusalCode.reasonCode } : {}),
      });
      if (outcome.kind !== 'declined' || outcome.refusalCode.recoveryAction !== 'retry') break;
    }
    return outcome!;
  }

  /** Before the cascade's next call: its attempt row replaces the answered one, naming the decline before it. */
  private async moveAttempt(
    ctx: CallerContext,
    r: Reserved,
    connection: ConnectionEntity,
    declined: AcquirerOutcome,
  ): Promise<void> {
    const next = this.attemptFor(ctx, r.payment, connection, r.requestHash, [
      ...(r.attempt.detail.kind === 'authorize' ? r.attempt.detail.earlier : []),
      { ...r.payment.attempts[r.payment.attempts.length - 1], outcome: 'declined', declined },
    ]);
    await pipelinedTransaction(this.db, async (m) => {
      await this.attempts.settle(m, r.attempt.id);
      await this.attempts.insert(m, next);
    });
    r.attempt = next;
  }

  private attemptFor(
    ctx: CallerContext,
    payment: PaymentEntity,
    connection: ConnectionEntity,
    requestHash: string | undefined,
    earlier: Extract<AcquirerAttempt['detail'], { kind: 'authorize' }>['earlier'],
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
      detail: { kind: 'authorize', connectionName: connection.connectionName, earlier },
    };
  }

  /** Nothing was recorded: the reserved payment, its attempt and its key go, so the same request can retry. */
  private release(ctx: CallerContext, r: Reserved): Promise<void> {
    return pipelinedTransaction(this.db, async (m) => {
      await this.attempts.drop(m, r.attempt.id);
      await this.payments.release(m, r.payment.id);
      await this.idempotency.release(m, ctx);
      if (r.card?.source === 'nonceData') await this.instruments.restoreNonce(m, ctx, r.card);
    });
  }
}
