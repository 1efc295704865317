import { Inject, Injectable, Optional } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { InjectDataSource } from '@nestjs/typeorm';
import type { CallerContext } from '@app/contracts';
import { fingerprint, LegacyFingerprint } from './fingerprint';
import { checkIdempotencyKey, keyInProgress, replayOf } from './idempotency-key';
import { IdempotencyRepository, IdempotencyRow, KeyScope, KeyTaken } from './idempotency.repository';

/** What a service decides for its keys. */
export interface IdempotencyOptions {
  /** A key is required on production requests (payments' money operations). */
  requireKeyInProduction?: boolean;
  /** How rows written before the versioned fingerprint were fingerprinted (default: the unversioned hash). */
  legacyFingerprint?: LegacyFingerprint;
}
export const IDEMPOTENCY_OPTIONS = Symbol('IDEMPOTENCY_OPTIONS');

/** What a request found under its Idempotency-Key: an answer to replay, or the key is now its own. */
export type Claim<T> = { replay: T } | { replay?: undefined; requestHash?: string };

type KeyContext = KeyScope & Pick<CallerContext, 'idempotencyKey'>;

/**
 * Idempotency-Key records. `claim`, in the transaction that starts the work, makes the key's row "in
 * progress" or finds an earlier one: its stored answer is replayed, a key still in progress answers 409
 * IDEMPOTENCY_IN_PROGRESS, a key used with another body or operation 422 IDEMPOTENCY_KEY_REUSED (`hold` and
 * `earlierAnswer` do the same for a transaction sent as one batch). `complete`, in the transaction that records
 * the work's outcome, stores the answer; `release` frees a key whose request recorded nothing, so a retry with
 * it proceeds. A 4xx raised inside the claiming transaction rolls the claim back with it. `transaction` is the
 * whole of it for work that is one transaction.
 */
@Injectable()
export class IdempotencyService {
  private readonly options: IdempotencyOptions;

  constructor(
    private readonly keys: IdempotencyRepository,
    @InjectDataSource() private readonly db: DataSource,
    @Optional() @Inject(IDEMPOTENCY_OPTIONS) options?: IdempotencyOptions,
  ) {
    this.options = options ?? {};
  }

  async claim<T>(manager: EntityManager, ctx: CallerContext, operation: string, request: unknown): Promise<Claim<T>> {
    const key = this.checked(ctx);
    if (key === undefined) return {};
    const hash = fingerprint(request);
    // Both leave together: the lookup runs after the insert has settled either way.
    const [reserved, earlier] = await Promise.all([
      this.keys.reserve(manager, ctx, key, operation, hash),
      this.keys.find(manager, ctx, key),
    ]);
    if (reserved) return { requestHash: hash };
    // No row: released between the two statements, so the holder recorded nothing; a retry proceeds.
    if (!earlier) throw keyInProgress();
    return { replay: this.replay<T>(earlier, operation, request) };
  }

  /**
   * For a claim sent in one batch (no round trip before its commit): the key's row in progress, deferred;
   * the transaction then fails with KeyTaken if the key had a row, and `earlierAnswer` says what it means.
   * Answers the request's fingerprint (undefined without a key).
   */
  async hold(
    manager: EntityManager,
    ctx: CallerContext,
    operation: string,
    request: unknown,
  ): Promise<string | undefined> {
    const key = this.checked(ctx);
    if (key === undefined) return undefined;
    const hash = fingerprint(request);
    await this.keys.hold(manager, ctx, key, operation, hash);
    return hash;
  }

  /**
   * The earlier request's answer to replay, 409 while it is in progress, 422 for another body or operation;
   * undefined when the key has no row. After a `hold` whose transaction failed with `error`, a missing row
   * means it was released meanwhile (409; a retry proceeds); otherwise the error stands.
   */
  async earlierAnswer<T>(
    ctx: CallerContext,
    operation: string,
    request: unknown,
    error?: unknown,
  ): Promise<T | undefined> {
    const key = error === undefined ? this.checked(ctx) : ctx.idempotencyKey;
    if (key === undefined) return undefined;
    const earlier = await this.keys.findNow(ctx, key);
    if (!earlier) {
      if (error instanceof KeyTaken) throw keyInProgress();
      return undefined;
    }
    return this.replay<T>(earlier, operation, request);
  }

  complete(manager: EntityManager, ctx: KeyContext, response: unknown, status = 200): Promise<void> {
    return ctx.idempotencyKey === undefined
      ? Promise.resolve()
      : this.keys.complete(manager, ctx, ctx.idempotencyKey, status, response);
  }

  release(manager: EntityManager, ctx: KeyContext): Promise<void> {
    return ctx.idempotencyKey === undefined ? Promise.resolve() : this.keys.release(manager, ctx, ctx.idempotencyKey);
  }

  /**
   * Work that is one transaction: the key claimed in it (a twin in flight holds the key's row, so the claim
   * waits for its commit and then replays its answer), the answer stored with the work's outcome.
   */
  transaction<T>(
    ctx: CallerContext,
    operation: string,
    request: unknown,
    status: number,
    work: (manager: EntityManager) => Promise<T>,
  ): Promise<T> {
    return this.db.transaction(async (manager) => {
      const claim = await this.claim<T>(manager, ctx, operation, request);
      if (claim.replay !== undefined) return claim.replay;
      const response = await work(manager);
      await this.complete(manager, ctx, response, status);
      return response;
    });
  }

  private checked(ctx: CallerContext): string | undefined {
    const required = this.options.requireKeyInProduction === true && ctx.environment === 'production';
    checkIdempotencyKey(ctx.idempotencyKey, required);
    return ctx.idempotencyKey;
  }

  private replay<T>(earlier: IdempotencyRow, operation: string, request: unknown): T {
    const answered = { ...earlier, answered: earlier.responseStatus !== null, body: earlier.responseBody };
    return replayOf<T>(answered, operation, request, this.options.legacyFingerprint);
  }
}
