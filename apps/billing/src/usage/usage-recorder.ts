import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock, parseRfc3339, sandboxOffsetOf, uuidv7 } from '@app/clock';
import {
  CallerContext,
  UsageBatchRequest,
  UsageBatchResponse,
  UsageBatchResult,
  UsageEventView,
  UsageRequest,
} from '@app/contracts';
import { GroupCommit, inTransaction } from '@app/database';
import { DomainError } from '@app/errors';
import { readUsageBatchEvent } from './usage-event-input';
import { NewUsage, StoredUsage, UsageLookup, UsageRepository, usageKey } from './usage.repository';

/** How far ahead of the merchant's clock an event may be dated (clock skew of the reporting system). */
export const USAGE_MAX_AHEAD_MS = 5 * 60 * 1000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Subscriptions that will never bill again: usage for them would be silently lost. */
const ENDED = new Set(['cancelled', 'completed']);

interface Candidate {
  subscriptionId: string;
  meterCode: string;
  quantity: number;
  occurredAt?: string;
  idempotencyKey?: string;
}

type Outcome = { event: UsageEventView } | { error: DomainError };

/** Where an event stands while its batch is decided. */
interface Pending {
  candidate: Candidate;
  occurredAt: Date;
  outcome?: Outcome;
  /** Written by this batch (if the insert keeps it). */
  row?: NewUsage;
  /** A replay of an earlier event of this batch: answers as that one does. */
  sameAs?: Pending;
}

/**
 * Records metered usage (docs/api.md, Usage) for RecordUsageUseCase and RecordUsageBatchUseCase, one event or a
 * batch of up to 1,000 alike: per event the answer a
 * single request would get. A batch costs one lookup and one multi-row INSERT, whatever its size.
 * Idempotent on (meter, key): a replay answers the recorded event with `duplicate: true`; the same key with
 * another subscription, quantity or occurredAt is 422 IDEMPOTENCY_KEY_REUSED.
 */
@Injectable()
export class UsageRecorder {
  /**
   * Single events of one scope (and sandbox clock) that arrive together share a transaction: the batch path,
   * each with the answer it would get alone. Four transactions at most in flight per process.
   */
  private readonly singles = new GroupCommit<CallerContext, Candidate, Outcome>(
    (ctx, candidates) => this.record(ctx, candidates, 'Idempotency-Key'),
    (ctx) => `${ctx.merchantCode}\n${ctx.environment}\n${sandboxOffsetOf(ctx)}`,
    4,
    1000,
  );

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly repository: UsageRepository,
    private readonly clock: Clock,
  ) {}

  async one(ctx: CallerContext, body: UsageRequest): Promise<UsageEventView> {
    const outcome = await this.singles.submit(ctx, { ...body, idempotencyKey: ctx.idempotencyKey });
    if ('error' in outcome) throw outcome.error;
    return outcome.event;
  }

  async batch(ctx: CallerContext, body: UsageBatchRequest): Promise<UsageBatchResponse> {
    // Each event on its own: a malformed one is its own 400 result, not a refusal of the batch.
    const parsed = body.events.map(readUsageBatchEvent);
    const valid = parsed.filter((p): p is Candidate => !(p instanceof DomainError));
    const outcomes = await this.record(ctx, valid, 'idempotencyKey');
    let next = 0;
    const results = parsed.map((p, index): UsageBatchResult => {
      const outcome: Outcome = p instanceof DomainError ? { error: p } : outcomes[next++];
      if ('error' in outcome) return { index, status: outcome.error.status, error: errorBody(outcome.error) };
      return { index, status: outcome.event.duplicate ? 200 : 201, event: outcome.event };
    });
    return { results };
  }

  private async record(ctx: CallerContext, candidates: Candidate[], keyParam: string): Promise<Outcome[]> {
    const now = this.clock.now(ctx);
    const pending = candidates.map((candidate): Pending => {
      const occurredAt = candidate.occurredAt == null ? now : parseRfc3339(candidate.occurredAt);
      if (!occurredAt) {
        const error = DomainError.validation('occurredAt must be an RFC 3339 date-time with a time zone', 'occurredAt');
        return { candidate, occurredAt: now, outcome: { error } };
      }
      if (!UUID.test(candidate.subscriptionId)) {
        return { candidate, occurredAt, outcome: { error: DomainError.notFound('subscription', 'subscriptionId') } };
      }
      return { candidate: { ...candidate, subscriptionId: candidate.subscriptionId.toLowerCase() }, occurredAt };
    });
    const open = pending.filter((p) => !p.outcome);
    if (open.length) {
      const insert = await inTransaction(this.db, async (manager) => {
        const subscriptionIds = distinct(open.map((p) => p.candidate.subscriptionId));
        await this.repository.lockShared(manager, subscriptionIds);
        const keyed = open.filter((p) => p.candidate.idempotencyKey != null);
        const lookup = await this.repository.lookup(
          manager,
          ctx,
          subscriptionIds,
          distinct(open.map((p) => p.candidate.meterCode)),
          keyed.map((p) => ({ meterCode: p.candidate.meterCode, key: p.candidate.idempotencyKey! })),
        );
        decide(open, lookup, now, keyParam);
        const rows = open.flatMap((p) => (p.row ? [p.row] : []));
        // Not awaited here: the INSERT leaves with the COMMIT, one round trip for both.
        return rows.length ? { written: this.repository.insert(manager, rows, now) } : undefined;
      });
      const written = insert ? await insert.written : new Set<string>();
      const lost = open.filter((p) => p.row && !written.has(p.row.id));
      // A concurrent request took these keys between our lookup and insert: theirs is the recorded event.
      if (lost.length) {
        const winners = await this.repository.byKeys(
          this.db.manager,
          lost.map((p) => ({ meterId: p.row!.meterId, key: p.row!.idempotencyKey! })),
        );
        for (const p of lost) {
          p.outcome = replay(p, winners.get(usageKey(p.row!.meterId, p.row!.idempotencyKey!)), keyParam);
        }
      }
    }
    return pending.map((p) => outcomeOf(p, keyParam));
  }
}

/** Each open event: a replay, an error, or a new row, in request order (a key's first use wins). */
function decide(open: Pending[], lookup: UsageLookup, now: Date, keyParam: string): void {
  const firstUse = new Map<string, Pending>();
  for (const p of open) {
    const c = p.candidate;
    const meterId = lookup.meters.get(c.meterCode);
    const key = meterId !== undefined && c.idempotencyKey != null ? usageKey(meterId, c.idempotencyKey) : undefined;
    const stored = key !== undefined ? lookup.existing.get(key) : undefined;
    if (stored) {
      p.outcome = replay(p, stored, keyParam);
      continue;
    }
    const earlier = key !== undefined ? firstUse.get(key) : undefined;
    if (earlier) {
      p.sameAs = earlier;
      continue;
    }
    const error = refusal(p, lookup, meterId, now) ?? lookup.bound.admit(c.subscriptionId, meterId!, c.quantity);
    if (error) {
      p.outcome = { error };
      continue;
    }
    p.row = {
      id: uuidv7(),
      subscriptionId: c.subscriptionId,
      meterId: meterId!,
      quantity: c.quantity,
      occurredAt: p.occurredAt,
      idempotencyKey: c.idempotencyKey ?? null,
    };
    if (key !== undefined) firstUse.set(key, p);
  }
}

/**
 * Why a new event cannot be recorded, checked in order: existence, input, state; then the safe bound of the
 * period's totals (usage-bound.ts), which counts the event once it passes.
 */
function refusal(p: Pending, lookup: UsageLookup, meterId: string | undefined, now: Date): DomainError | undefined {
  const subscription = lookup.subscriptions.get(p.candidate.subscriptionId);
  if (!subscription) return DomainError.notFound('subscription', 'subscriptionId');
  if (meterId === undefined) return DomainError.notFound('meter', 'meterCode');
  const at = p.occurredAt.getTime();
  if (at > now.getTime() + USAGE_MAX_AHEAD_MS) {
    return DomainError.validation('occurredAt is more than 5 minutes ahead of the current time', 'occurredAt');
  }
  if (at < subscription.startsAt.getTime()) {
    return DomainError.validation('occurredAt is before the subscription start', 'occurredAt');
  }
  if (ENDED.has(subscription.status)) {
    return DomainError.invalidState(`The subscription is ${subscription.status}: it takes no more usage`);
  }
  if (subscription.billedThrough && at < subscription.billedThrough.getTime()) {
    return new DomainError('USAGE_PERIOD_CLOSED', 'occurredAt falls in a period already invoiced', 'occurredAt');
  }
  return undefined;
}

/** The recorded event as the replay's answer, unless the replay says something else under the same key. */
function replay(p: Pending, stored: StoredUsage | undefined, keyParam: string): Outcome {
  if (!stored) throw new Error('An idempotency key conflicted, but its event is not visible');
  const c = p.candidate;
  const same =
    stored.subscriptionId === c.subscriptionId &&
    stored.quantity === c.quantity &&
    (c.occurredAt == null || stored.occurredAt.getTime() === p.occurredAt.getTime());
  if (!same) {
    return {
      error: new DomainError(
        'IDEMPOTENCY_KEY_REUSED',
        'This key already recorded another event for this meter (subscription, quantity or occurredAt differ)',
        keyParam,
      ),
    };
  }
  return { event: view(stored, c.meterCode, true) };
}

function outcomeOf(p: Pending, keyParam: string): Outcome {
  if (p.sameAs) {
    const first = outcomeOf(p.sameAs, keyParam);
    if ('error' in first) return first;
    const stored: StoredUsage = {
      ...first.event,
      meterId: '',
      idempotencyKey: '',
      occurredAt: new Date(first.event.occurredAt),
    };
    return replay(p, stored, keyParam);
  }
  if (p.outcome) return p.outcome;
  return { event: view(p.row!, p.candidate.meterCode, false) };
}

function view(
  e: Pick<StoredUsage, 'id' | 'subscriptionId' | 'quantity' | 'occurredAt'>,
  meterCode: string,
  duplicate: boolean,
): UsageEventView {
  return {
    id: e.id,
    subscriptionId: e.subscriptionId,
    meterCode,
    quantity: e.quantity,
    occurredAt: e.occurredAt.toISOString(),
    duplicate,
  };
}

function errorBody(e: DomainError): UsageBatchResult['error'] {
  return { status: e.status, code: e.code, message: e.message, ...(e.param ? { param: e.param } : {}) };
}

const distinct = (values: string[]): string[] => [...new Set(values)];
