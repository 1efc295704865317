import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '@app/clock';
import { CallerContext } from '@app/contracts';
import { pipelinedTransaction, SandboxClockCopy } from '@app/database';
import { AcquirerOutcome, ModificationOutcome } from '../connector/connector';
import { AcquirerCalls } from '../connector/acquirer-call';
import { ConnectorRegistry } from '../connector/connector.registry';
import { IdempotencyService } from '@app/idempotency';
import { OperationRecord } from '../operations/operation-record';
import { PaymentRepository } from '../payment/payment.repository';
import { AuthorizationRecord } from '../purchase/authorization-record';
import { PaymentSessionRepository } from '../threeds/payment-session.repository';
import { ResumeUseCase } from '../threeds/resume.use-case';
import { AcquirerAttempt, AuthorizationDetail, ChallengeDetail } from './acquirer-attempt';
import { AcquirerAttemptRepository } from './acquirer-attempt.repository';

export type Resolution = 'recorded' | 'released';

/**
 * Resolves an acquirer attempt whose request never recorded (its process died between reserve and record):
 * the acquirer is asked what it did for the attempt's request reference. It acted → its answer is recorded
 * exactly as the request would have recorded it (without what only the request had: a card to tokenize, APM
 * details for instructions). It did not → the reservation is released: a reserved payment and the
 * Idempotency-Key go, so the order code and the key can be used again (a cascade's earlier decline is
 * recorded instead, as the request would have answered it); a 3DS session used up by the resume is usable again.
 */
@Injectable()
export class RecoveryService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly connectors: ConnectorRegistry,
    private readonly acquirer: AcquirerCalls,
    private readonly attempts: AcquirerAttemptRepository,
    private readonly payments: PaymentRepository,
    private readonly idempotency: IdempotencyService,
    private readonly authorizations: AuthorizationRecord,
    private readonly operations: OperationRecord,
    private readonly clocks: SandboxClockCopy,
    private readonly clock: Clock,
    private readonly resume: ResumeUseCase,
    private readonly sessions: PaymentSessionRepository,
  ) {}

  async resolve(a: AcquirerAttempt): Promise<Resolution> {
    const connector = this.connectors.get(a.acquirer);
    const about = { acquirer: a.acquirer, operation: `lookup ${a.operation}`, paymentId: a.paymentId };
    const found = await this.acquirer.call(about, () => connector.lookup(a.requestReference));
    const ctx: CallerContext = {
      requestId: `recovery-${a.id}`,
      merchantCode: a.merchantCode,
      environment: a.environment,
      idempotencyKey: a.idempotencyKey ?? undefined,
    };
    const now = this.clock.now(await this.clocks.clockScopeOf(ctx));
    const detail = a.detail;
    return pipelinedTransaction(this.db, (m) => {
      switch (detail.kind) {
        case 'authorize':
          return this.resolveAuthorization(m, ctx, a, detail, found as AcquirerOutcome | undefined, now);
        case 'complete_challenge':
          return this.resolveChallenge(m, a, detail, found as AcquirerOutcome | undefined, now);
        default:
          return this.resolveModification(m, ctx, a, found as ModificationOutcome | undefined, now);
      }
    });
  }

  /** A 3DS resume: the acquirer's final answer recorded, or the session usable again for another resume. */
  private async resolveChallenge(
    m: EntityManager,
    a: AcquirerAttempt,
    detail: ChallengeDetail,
    found: AcquirerOutcome | undefined,
    now: Date,
  ): Promise<Resolution> {
    await this.attempts.settle(m, a.id);
    if (!found) {
      await this.sessions.reopen(m, detail.sessionId);
      return 'released';
    }
    await this.resume.record(m, a, found, now);
    return 'recorded';
  }

  private async resolveAuthorization(
    m: EntityManager,
    ctx: CallerContext,
    a: AcquirerAttempt,
    detail: AuthorizationDetail,
    found: AcquirerOutcome | undefined,
    now: Date,
  ): Promise<Resolution> {
    const payment = await this.payments.reserved(m, a.paymentId);
    const earlier = detail.earlier.map(({ declined: _declined, ...tried }) => tried);
    const outcome = found ?? detail.earlier[detail.earlier.length - 1]?.declined;
    if (!payment || !outcome) return this.release(m, ctx, a);
    if (found) {
      payment.connectionCode = a.connectionCode;
      payment.connectionName = detail.connectionName;
      payment.acquirer = a.acquirer;
      payment.attempts = [
        ...earlier,
        {
          connectionCode: a.connectionCode,
          outcome: found.kind,
          ...(found.kind === 'declined' ? { reasonCode: found.refusalCode.reasonCode } : {}),
        },
      ];
    } else {
      payment.attempts = earlier;
    }
    await this.authorizations.record(m, ctx, a.id, payment, outcome, now);
    return 'recorded';
  }

  private async resolveModification(
    m: EntityManager,
    ctx: CallerContext,
    a: AcquirerAttempt,
    found: ModificationOutcome | undefined,
    now: Date,
  ): Promise<Resolution> {
    if (!found) return this.release(m, ctx, a);
    await this.operations.record(m, ctx, a, found, now);
    return 'recorded';
  }

  /** The acquirer never acted: the reservation goes (the settle fails the commit if a record beat us to it). */
  private async release(m: EntityManager, ctx: CallerContext, a: AcquirerAttempt): Promise<Resolution> {
    await this.attempts.settle(m, a.id);
    if (a.detail.kind === 'authorize') await this.payments.release(m, a.paymentId);
    await this.idempotency.release(m, ctx);
    return 'released';
  }
}
