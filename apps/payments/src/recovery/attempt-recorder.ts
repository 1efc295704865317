import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { CallerContext } from '@app/contracts';
import { AuthorizationOutcome, ModificationOutcome } from '../connector/provider-connector';
import { OperationRecord } from '../operations/operation-record';
import { PaymentRepository } from '../payment/payment.repository';
import { AuthorizationRecord } from '../purchase/authorization-record';
import { ChallengeRecord } from '../threeds/challenge-record';
import { AcquirerAttempt, AuthorizationDetail } from '../reservation/acquirer-attempt';
import { ReservationRelease } from '../reservation/reservation-release';

/** `waiting`: the provider has not settled it yet (its webhook will, or a later sweep's sync). */
export type Resolution = 'recorded' | 'released' | 'waiting';

/**
 * What the acquirer did for an attempt that never recorded, recorded in the recovery sweep's transaction by
 * the record step of its kind (the payment's change, its event and the Idempotency-Key's answer), exactly as
 * the request would have recorded it; when the acquirer did nothing, the reservation is released.
 */
@Injectable()
export class AttemptRecorder {
  constructor(
    private readonly payments: PaymentRepository,
    private readonly authorizations: AuthorizationRecord,
    private readonly operations: OperationRecord,
    private readonly challenges: ChallengeRecord,
    private readonly releases: ReservationRelease,
  ) {}

  record(
    m: EntityManager,
    ctx: CallerContext,
    a: AcquirerAttempt,
    found: AuthorizationOutcome | ModificationOutcome | undefined,
    now: Date,
  ): Promise<Resolution> {
    const detail = a.detail;
    switch (detail.kind) {
      case 'authorize':
        return this.authorization(m, ctx, a, detail, found as AuthorizationOutcome | undefined, now);
      case 'complete_challenge':
        return this.challenges.recover(m, a, detail, found as AuthorizationOutcome | undefined, now);
      default:
        return this.modification(m, ctx, a, found as ModificationOutcome | undefined, now);
    }
  }

  private async authorization(
    m: EntityManager,
    ctx: CallerContext,
    a: AcquirerAttempt,
    detail: AuthorizationDetail,
    found: AuthorizationOutcome | undefined,
    now: Date,
  ): Promise<Resolution> {
    const payment = await this.payments.reserved(m, a.paymentId);
    const earlier = detail.earlier.map(({ declined: _declined, ...tried }) => tried);
    const outcome = found ?? detail.earlier[detail.earlier.length - 1]?.declined;
    if (!payment || !outcome) return this.releases.recovered(m, ctx, a);
    // The reserving request's trace (not read back with the row), for a 3DS session this record opens.
    payment.traceParent = a.traceParent;
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
    await this.authorizations.record(m, ctx, a.id, payment, outcome, now, { sessionId: detail.sessionId });
    return 'recorded';
  }

  private async modification(
    m: EntityManager,
    ctx: CallerContext,
    a: AcquirerAttempt,
    found: ModificationOutcome | undefined,
    now: Date,
  ): Promise<Resolution> {
    if (!found) return this.releases.recovered(m, ctx, a);
    await this.operations.record(m, ctx, a, found, now);
    return 'recorded';
  }
}
