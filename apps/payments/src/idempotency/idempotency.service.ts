import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { CallerContext } from '@app/contracts';
import { DomainError } from '@app/errors';
import { checkIdempotencyKey, IdempotentOperation, requestHash } from './idempotency-key';
import { IdempotencyRecord } from './idempotency.entity';
import { IdempotencyRepository, KeyTaken } from './idempotency.repository';

/** What a request found under its Idempotency-Key: an answer to replay, or the key is now its own. */
export type Claim<T> = { replay: T } | { replay?: undefined; requestHash?: string };

/**
 * Idempotency-Key records (DECISIONS §1, §3 Rules) for work done as reserve, call, record. `claim`, in the
 * reserve transaction, makes the key's row "in progress" or finds an earlier one: its stored answer is
 * replayed, a key still in progress answers 409 IDEMPOTENCY_IN_PROGRESS, a key used with another body or
 * operation 422 IDEMPOTENCY_KEY_REUSED. `complete`, in the record transaction, stores the answer; `release`
 * frees a key whose request recorded nothing (an error after the reservation), so a retry with it proceeds.
 * A 4xx raised inside the reserve transaction rolls the claim back with it.
 */
@Injectable()
export class IdempotencyService {
  constructor(private readonly keys: IdempotencyRepository) {}

  async claim<T>(
    manager: EntityManager,
    ctx: CallerContext,
    operation: IdempotentOperation,
    request: unknown,
  ): Promise<Claim<T>> {
    const key = ctx.idempotencyKey;
    checkIdempotencyKey(ctx.environment, key);
    if (key === undefined) return {};
    const hash = requestHash(request);
    // Both leave together: the lookup runs after the insert has settled either way.
    const [reserved, earlier] = await Promise.all([
      this.keys.reserve(manager, ctx, key, operation, hash),
      this.keys.find(manager, ctx, key),
    ]);
    if (reserved) return { requestHash: hash };
    // No row: released between the two statements, so the holder recorded nothing; a retry proceeds.
    if (!earlier) throw inProgress();
    return { replay: answerOf<T>(earlier, operation, hash) };
  }

  /**
   * For a reserve sent in one batch (no round trip before its commit): the key's row in progress, deferred;
   * the transaction then fails with KeyTaken if the key had a row, and `earlierAnswer` says what it means.
   * Answers the request hash (undefined without a key).
   */
  async hold(
    manager: EntityManager,
    ctx: CallerContext,
    operation: IdempotentOperation,
    request: unknown,
  ): Promise<string | undefined> {
    const key = ctx.idempotencyKey;
    checkIdempotencyKey(ctx.environment, key);
    if (key === undefined) return undefined;
    const hash = requestHash(request);
    await this.keys.hold(manager, ctx, key, operation, hash);
    return hash;
  }

  /**
   * After a `hold` whose transaction failed with `error`: the earlier request's answer to replay, 409 while it
   * is in progress, 422 for another body or operation; undefined when the key has no answer and the error
   * stands (a 4xx of this request).
   */
  async earlierAnswer<T>(
    ctx: CallerContext,
    operation: IdempotentOperation,
    request: unknown,
    error: unknown,
  ): Promise<T | undefined> {
    const key = ctx.idempotencyKey;
    if (key === undefined) return undefined;
    const earlier = await this.keys.findNow(ctx, key);
    if (!earlier) {
      // Released between our insert and this read: the holder recorded nothing, a retry proceeds.
      if (error instanceof KeyTaken) throw inProgress();
      return undefined;
    }
    return answerOf<T>(earlier, operation, requestHash(request));
  }

  complete(manager: EntityManager, ctx: CallerContext, response: object): Promise<void> {
    return ctx.idempotencyKey === undefined
      ? Promise.resolve()
      : this.keys.complete(manager, ctx, ctx.idempotencyKey, response);
  }

  release(
    manager: EntityManager,
    ctx: Pick<CallerContext, 'merchantCode' | 'environment' | 'idempotencyKey'>,
  ): Promise<void> {
    return ctx.idempotencyKey === undefined ? Promise.resolve() : this.keys.release(manager, ctx, ctx.idempotencyKey);
  }
}

/** The earlier request's stored answer; 409 while it is in progress, 422 when it was another request. */
function answerOf<T>(earlier: IdempotencyRecord, operation: string, hash: string): T {
  if (earlier.responseStatus === null) throw inProgress();
  if (earlier.operation !== operation || earlier.requestHash !== hash) throw reused(earlier, operation);
  return earlier.responseBody as T;
}

const reused = (earlier: { operation: string }, operation: string): DomainError =>
  new DomainError(
    'IDEMPOTENCY_KEY_REUSED',
    `This Idempotency-Key was used for another ${earlier.operation === operation ? 'request body' : 'operation'}`,
    'Idempotency-Key',
  );

const inProgress = (): DomainError =>
  new DomainError(
    'IDEMPOTENCY_IN_PROGRESS',
    'A request with this Idempotency-Key is still in progress; retry shortly',
    'Idempotency-Key',
  );
