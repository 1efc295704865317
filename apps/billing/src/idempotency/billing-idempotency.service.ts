import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { uuidv7 } from '@app/clock';
import { CallerContext } from '@app/contracts';
import { DomainError } from '@app/errors';
import { BillingIdempotencyRepository } from './billing-idempotency.repository';

/** How long a reservation holds a key: longer than any payments call billing waits for. */
const LEASE_MS = 60_000;

/** What a billing operation gets to make its own calls idempotent and to record its answer. */
export interface IdempotentRun {
  /** The id of what the operation creates: the same for every attempt with one Idempotency-Key. */
  resourceId: string;
  /**
   * The Idempotency-Key for one payments call of this operation (`purpose`: "cit", "mit", …): the same for a
   * retry of the same request (same key and body), new for a corrected body or a call without a key.
   */
  paymentsKey(purpose: string): string;
  /** Records the answer inside the transaction of the change (a no-op without an Idempotency-Key). */
  answer(manager: EntityManager, response: unknown): Promise<void>;
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * Idempotency-Key on billing's POSTs (DECISIONS §1), without a transaction held across the payments call
 * (STYLE §9): the key is reserved (an in-progress row, committed), the operation calls payments, then its
 * answer is recorded with the state change. A replay answers the first answer; a key in progress is 409
 * IDEMPOTENCY_IN_PROGRESS; another body or operation with the key is 422 IDEMPOTENCY_KEY_REUSED; an error
 * releases the key so that a corrected retry proceeds.
 */
@Injectable()
export class BillingIdempotencyService {
  constructor(private readonly records: BillingIdempotencyRepository) {}

  async run<T>(
    ctx: CallerContext,
    operation: string,
    body: unknown,
    work: (run: IdempotentRun) => Promise<T>,
  ): Promise<T> {
    const key = ctx.idempotencyKey;
    if (key === undefined) {
      const once = uuidv7();
      return work({
        resourceId: once,
        paymentsKey: (purpose) => `billing_${once}_${purpose}`,
        answer: () => Promise.resolve(),
      });
    }
    const hash = sha256(`${operation}\n${JSON.stringify(body ?? {})}`);
    const resourceId = await this.records.reserve(ctx, key, operation, hash, uuidv7(), LEASE_MS);
    if (!resourceId) return this.replay<T>(ctx, key, operation, hash);
    const derived = sha256(`${ctx.environment}\n${ctx.merchantCode}\n${key}\n${hash}`).slice(0, 40);
    const run: IdempotentRun = {
      resourceId,
      paymentsKey: (purpose) => `billing_${derived}_${purpose}`,
      answer: (manager, response) => this.records.answer(manager, ctx, key, response),
    };
    try {
      return await work(run);
    } catch (e) {
      await this.records.release(ctx, key);
      throw e;
    }
  }

  private async replay<T>(ctx: CallerContext, key: string, operation: string, hash: string): Promise<T> {
    const row = await this.records.find(ctx, key);
    if (row && (row.operation !== operation || row.request_hash !== hash)) {
      throw new DomainError(
        'IDEMPOTENCY_KEY_REUSED',
        'This Idempotency-Key was used with another request',
        'Idempotency-Key',
      );
    }
    if (row && row.response !== null) return row.response as T;
    if (row && row.reserved_until === null) {
      // Released by a failed attempt meanwhile: the caller may simply retry.
      throw new DomainError('IDEMPOTENCY_IN_PROGRESS', 'A request with this Idempotency-Key just failed; retry');
    }
    throw new DomainError('IDEMPOTENCY_IN_PROGRESS', 'A request with this Idempotency-Key is in progress');
  }
}
