import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { uuidv7 } from '@app/clock';
import { CallerContext } from '@app/contracts';
import { checkIdempotencyKey, fingerprint, keyInProgress, LegacyFingerprint, replayOf } from '@app/idempotency';
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
 * Billing's fingerprint before the versioned one: the operation and the body as sent, so another key order
 * in the body was another request. Rows written with it still replay a retry of the same request.
 */
const legacy: LegacyFingerprint = (body, operation) => sha256(`${operation}\n${JSON.stringify(body ?? {})}`);

/**
 * Idempotency-Key on billing's POSTs, without a transaction held across the payments call: the key is
 * reserved (an in-progress row, committed), the operation calls payments, then its answer is recorded with
 * the state change. Replays, 409 and 422 are decided as for every service (@app/idempotency); an error
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
    checkIdempotencyKey(key);
    if (key === undefined) {
      const once = uuidv7();
      return work({
        resourceId: once,
        paymentsKey: (purpose) => `billing_${once}_${purpose}`,
        answer: () => Promise.resolve(),
      });
    }
    const request = body ?? {};
    const hash = { current: fingerprint(request), legacy: legacy(request, operation) };
    const taken = await this.records.reserve(ctx, key, operation, hash, uuidv7(), LEASE_MS);
    if (!taken) return this.replay<T>(ctx, key, operation, request);
    const derived = sha256(`${ctx.environment}\n${ctx.merchantCode}\n${key}\n${taken.requestHash}`).slice(0, 40);
    const run: IdempotentRun = {
      resourceId: taken.resourceId,
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

  private async replay<T>(ctx: CallerContext, key: string, operation: string, request: unknown): Promise<T> {
    const row = await this.records.find(ctx, key);
    // Released by a failed attempt meanwhile (a released key of another operation stays that operation's).
    const released = !row || (row.response === null && row.reserved_until === null);
    if (!row || (released && row.operation === operation)) {
      throw keyInProgress('A request with this Idempotency-Key just failed; retry');
    }
    const earlier = { operation: row.operation, requestHash: row.request_hash, body: row.response };
    return replayOf<T>({ ...earlier, answered: released || row.response !== null }, operation, request, legacy);
  }
}
