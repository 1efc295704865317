import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { pipelinedTransaction } from '@app/database';
import { CallerContext } from '@app/contracts';
import { DomainError } from '@app/errors';
import { checkIdempotencyKey, IdempotentOperation, requestHash } from './idempotency-key';
import { IdempotencyRepository } from './idempotency.repository';

/**
 * Runs an operation in one transaction together with its Idempotency-Key record (DECISIONS §1, §3 Rules):
 * a replay answers the stored response, a key in flight answers 409 IDEMPOTENCY_IN_PROGRESS, a key used with
 * another body or operation 422 IDEMPOTENCY_KEY_REUSED. Only answers are stored: an error rolls the
 * transaction back, record included, so a corrected retry with the same key proceeds.
 */
@Injectable()
export class IdempotencyService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly keys: IdempotencyRepository,
  ) {}

  run<T>(
    ctx: CallerContext,
    operation: IdempotentOperation,
    request: unknown,
    work: (manager: EntityManager, requestHash?: string) => Promise<T>,
  ): Promise<T> {
    const key = ctx.idempotencyKey;
    checkIdempotencyKey(ctx.environment, key);
    if (key === undefined) return pipelinedTransaction(this.db, work);
    const hash = requestHash(request);
    return pipelinedTransaction(this.db, async (manager) => {
      // Both leave together: the lookup runs after the lock is taken (or refused) either way.
      const [locked, earlier] = await Promise.all([
        this.keys.tryLock(manager, ctx, key),
        this.keys.find(manager, ctx, key),
      ]);
      if (!locked) {
        throw new DomainError(
          'IDEMPOTENCY_IN_PROGRESS',
          'A request with this Idempotency-Key is still in progress; retry shortly',
          'Idempotency-Key',
        );
      }
      if (earlier) {
        if (earlier.operation !== operation || earlier.requestHash !== hash) {
          throw new DomainError(
            'IDEMPOTENCY_KEY_REUSED',
            `This Idempotency-Key was used for another ${earlier.operation === operation ? 'request body' : 'operation'}`,
            'Idempotency-Key',
          );
        }
        return earlier.responseBody as T;
      }
      const response = await work(manager, hash);
      await this.keys.insert(manager, {
        merchantCode: ctx.merchantCode,
        environment: ctx.environment,
        key,
        operation,
        requestHash: hash,
        responseStatus: 200,
        responseBody: response as object,
      });
      return response;
    });
  }
}
