import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { CallerContext } from '@app/contracts';
import { inTransaction } from '@app/database';
import { IdempotencyService } from '@app/idempotency';
import { PaymentRepository } from '../payment/payment.repository';
import { AcquirerAttempt } from './acquirer-attempt';
import { AcquirerAttemptRepository } from './acquirer-attempt.repository';

type KeyOf = Pick<CallerContext, 'merchantCode' | 'environment' | 'idempotencyKey'>;

/**
 * A reservation whose acquirer call recorded nothing goes: its attempt row, the payment an authorization
 * reserved (which frees its order code) and its Idempotency-Key, so the same request can retry.
 */
@Injectable()
export class ReservationRelease {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly attempts: AcquirerAttemptRepository,
    private readonly payments: PaymentRepository,
    private readonly idempotency: IdempotencyService,
  ) {}

  /**
   * After a call that failed, in a pipelined transaction of its own; `also` adds what else the request had
   * taken (a nonce's card).
   */
  afterFailedCall(ctx: KeyOf, attempt: AcquirerAttempt, also?: (m: EntityManager) => Promise<void>): Promise<void> {
    return inTransaction(this.db, async (m) => {
      await this.attempts.drop(m, attempt.id);
      await this.rest(m, ctx, attempt);
      if (also) await also(m);
    });
  }

  /** By the recovery sweep, in its transaction: the settle fails the commit if a record beat it to it. */
  async recovered(m: EntityManager, ctx: KeyOf, attempt: AcquirerAttempt): Promise<'released'> {
    await this.attempts.settle(m, attempt.id);
    await this.rest(m, ctx, attempt);
    return 'released';
  }

  private async rest(m: EntityManager, ctx: KeyOf, attempt: AcquirerAttempt): Promise<void> {
    if (attempt.detail.kind === 'authorize') await this.payments.release(m, attempt.paymentId);
    await this.idempotency.release(m, ctx);
  }
}
