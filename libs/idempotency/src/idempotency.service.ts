import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { InjectDataSource } from '@nestjs/typeorm';
import { uuidv7 } from '@app/clock';
import type { CallerContext } from '@app/contracts';
import { inTransaction } from '@app/database';
import { RequestFingerprints } from './fingerprint';
import { checkIdempotencyKey, keyInProgress, replayOf } from './idempotency-key';
import { IdempotencyRepository, IdempotencyRow, KeyScope, KeyTaken } from './idempotency.repository';

/** What a service decides for its keys. */
export interface IdempotencyOptions {
  /** IDEMPOTENCY_FINGERPRINT_KEY: the secret every fingerprint is keyed with (see RequestFingerprints). */
  fingerprintKey: string;
  /** A key is required on production requests (payments' money operations). */
  requireKeyInProduction?: boolean;
  /** For `leased`: work that calls other services between taking the key and recording its answer. */
  lease?: LeaseOptions;
}
export const IDEMPOTENCY_OPTIONS = Symbol('IDEMPOTENCY_OPTIONS');

export interface LeaseOptions {
  /** How long a taken key holds: longer than any call the work waits for; a crashed holder's key is free then. */
  ms: number;
  /**
   * A failed attempt releases the key but keeps its row, so the retry keeps the resource id (and the order
   * references made from it); otherwise the row goes.
   */
  keepResourceId: boolean;
  /** The service's prefix of the keys `callKey` derives. */
  callKeyPrefix: string;
}

/** What leased work gets to make its own calls idempotent and to record its answer. */
export interface LeasedRun {
  /** The id of what the work creates: the same for every attempt with one Idempotency-Key. */
  resourceId: string;
  /**
   * The Idempotency-Key of one call the work makes (`purpose`: "cit", "mit", …): the same for a retry of the
   * same request (same key and body), new for a corrected body or a request without a key.
   */
  callKey(purpose: string): string;
  /** Records the answer inside the transaction of the work's change (a no-op without an Idempotency-Key). */
  answer(manager: EntityManager, response: unknown): Promise<void>;
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

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
 * whole of it for work that is one transaction. `leased` is the whole of it for work that calls other services
 * before its transaction (see LeaseOptions).
 */
@Injectable()
export class IdempotencyService {
  private readonly fingerprints: RequestFingerprints;

  constructor(
    private readonly keys: IdempotencyRepository,
    @InjectDataSource() private readonly db: DataSource,
    @Inject(IDEMPOTENCY_OPTIONS) private readonly options: IdempotencyOptions,
  ) {
    this.fingerprints = new RequestFingerprints(options.fingerprintKey);
  }

  async claim<T>(manager: EntityManager, ctx: CallerContext, operation: string, request: unknown): Promise<Claim<T>> {
    const key = this.checked(ctx);
    if (key === undefined) return {};
    const hash = this.fingerprints.of(request);
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
    const hash = this.fingerprints.of(request);
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
    return inTransaction(this.db, async (manager) => {
      const claim = await this.claim<T>(manager, ctx, operation, request);
      if (claim.replay !== undefined) return claim.replay;
      const response = await work(manager);
      await this.complete(manager, ctx, response, status);
      return response;
    });
  }

  /**
   * Work that calls other services before the transaction that records its outcome, without holding a
   * transaction over those calls: the key is taken in a row committed on its own, leased for `lease.ms`; a
   * replay, 409 and 422 are decided as for every key; an error releases the key so a corrected retry proceeds.
   */
  async leased<T>(
    ctx: CallerContext,
    operation: string,
    body: unknown,
    work: (run: LeasedRun) => Promise<T>,
  ): Promise<T> {
    const lease = this.options.lease;
    if (!lease) throw new Error('leased() needs IdempotencyOptions.lease');
    const key = this.checked(ctx);
    if (key === undefined) {
      const once = uuidv7();
      const callKey = (purpose: string) => `${lease.callKeyPrefix}_${once}_${purpose}`;
      return work({ resourceId: once, callKey, answer: () => Promise.resolve() });
    }
    const request = body ?? {};
    const hash = { current: this.fingerprints.of(request), keep: this.fingerprints.earlierForms(request, operation) };
    const taken = await this.keys.lease(ctx, key, operation, hash, uuidv7(), lease.ms);
    if (!taken) return this.leaseReplay<T>(ctx, key, operation, request);
    // From the stored fingerprint, keyed, so the body cannot be traced from the call keys; a released row of an
    // earlier release keeps its plain one (24 hours at most) so that its retry sends the same keys again.
    const derived = sha256(`${ctx.environment}\n${ctx.merchantCode}\n${key}\n${taken.requestHash}`).slice(0, 40);
    const keyed = { ...ctx, idempotencyKey: key };
    try {
      return await work({
        resourceId: taken.resourceId,
        callKey: (purpose) => `${lease.callKeyPrefix}_${derived}_${purpose}`,
        answer: (manager, response) => this.complete(manager, keyed, response),
      });
    } catch (e) {
      await this.keys.unlease(ctx, key, lease.keepResourceId);
      throw e;
    }
  }

  private async leaseReplay<T>(ctx: CallerContext, key: string, operation: string, request: unknown): Promise<T> {
    const row = await this.keys.findNow(ctx, key);
    // Released by a failed attempt meanwhile (a released key of another operation stays that operation's).
    const released = !row || (row.responseStatus === null && row.reservedUntil === null);
    if (!row || (released && row.operation === operation)) {
      throw keyInProgress('A request with this Idempotency-Key just failed; retry');
    }
    const earlier = { operation: row.operation, requestHash: row.requestHash, body: row.responseBody };
    const answered = released || row.responseStatus !== null;
    return replayOf<T>({ ...earlier, answered }, operation, request, this.fingerprints);
  }

  private checked(ctx: CallerContext): string | undefined {
    const required = this.options.requireKeyInProduction === true && ctx.environment === 'production';
    checkIdempotencyKey(ctx.idempotencyKey, required);
    return ctx.idempotencyKey;
  }

  private replay<T>(earlier: IdempotencyRow, operation: string, request: unknown): T {
    const answered = { ...earlier, answered: earlier.responseStatus !== null, body: earlier.responseBody };
    return replayOf<T>(answered, operation, request, this.fingerprints);
  }
}
