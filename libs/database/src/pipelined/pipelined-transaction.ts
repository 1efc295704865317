import type { Link } from '@opentelemetry/api';
import type { PoolClient, QueryResultRow } from 'pg';
import { DataSource, EntityManager, QueryRunner } from 'typeorm';
import { inSpan, SpanKind, tracingOn } from '@app/observability';
import { inPipelineMode, markTransactionActive } from './driver-internals';
import { runStatement, sendInLine, sendOn, Statement } from './prepared';

/**
 * The one way to open a transaction (docs/architecture.md, "The database"): `inTransaction(db, (manager) => …)`.
 * The work's EntityManager serves TypeORM's API, parameterised SQL (`manager.query`) and named statements alike,
 * and the before- and after-commit hooks (the outbox's gathered writes and direct publish) work in every one.
 *
 * On connections in the driver's pipeline mode (`pipeline: true`, see
 * ServiceDatabaseOptions): a statement is sent without waiting for the answer to the one before, and every
 * statement issued during one event-loop turn leaves in one socket write. So `BEGIN` travels with the first
 * statements of the work, and the writes whose answers nobody needs (`deferStatement`) travel with `COMMIT`:
 * a purchase costs two round trips to PostgreSQL instead of six. On a connection without pipeline mode the
 * same code sends one statement after the other, each once the one before is answered (never two at once).
 * The manager is marked as in a transaction (TypeORM's own methods then open none; code that asks, such as the
 * outbox writer, hears yes).
 *
 * Semantics are those of `DataSource.transaction`: the work's EntityManager is in the transaction, anything
 * thrown rolls it back, and a deferred statement that fails fails the transaction with its own error (also
 * when a later statement then failed with "current transaction is aborted").
 */
export function inTransaction<T>(
  ds: DataSource,
  work: (manager: EntityManager) => Promise<T>,
  o: { links?: Link[] } = {},
): Promise<T> {
  if (!tracingOn()) return runPipelined(ds, work);
  // One span per transaction, its statements (the pg driver's spans) inside it; a group's links to its works.
  const attributes = { 'db.system.name': 'postgresql' };
  return inSpan('db transaction', { kind: SpanKind.CLIENT, attributes, links: o.links }, () => runPipelined(ds, work));
}

async function runPipelined<T>(ds: DataSource, work: (manager: EntityManager) => Promise<T>): Promise<T> {
  const runner = ds.createQueryRunner();
  const client = (await runner.connect()) as PoolClient;
  const deferred: Array<Promise<unknown>> = [];
  const own: Hooks = { beforeCommit: [], afterCommit: [], states: new Map() };
  pending.set(runner, deferred);
  hooks.set(runner, own);
  // Outside pipeline mode the connection takes one statement at a time: the deferred ones wait their turn.
  sendInLine(runner, !inPipelineMode(client));
  const begin = quietly(sendOn(runner, client, 'BEGIN'));
  markTransactionActive(runner, true);
  try {
    const result = await work(runner.manager);
    for (const hook of own.beforeCommit) await hook();
    const commit = quietly(sendOn(runner, client, 'COMMIT'));
    await firstFailure([begin, ...deferred, commit]);
    runAfterCommit(own.afterCommit);
    return result;
  } catch (e) {
    await sendOn(runner, client, 'ROLLBACK').catch(() => undefined);
    // The first failed write explains the transaction better than the statements it aborted.
    throw (await failureAmong(deferred)) ?? e;
  } finally {
    pending.delete(runner);
    hooks.delete(runner);
    sendInLine(runner, false);
    markTransactionActive(runner, false);
    await runner.release();
  }
}

const pending = new WeakMap<QueryRunner, Array<Promise<unknown>>>();
interface Hooks {
  beforeCommit: Array<() => Promise<void>>;
  afterCommit: Array<() => void>;
  /** What writers gather over the transaction (see transactionState), by their slot. */
  states: Map<object | symbol, unknown>;
}
const hooks = new WeakMap<QueryRunner, Hooks>();

/**
 * The transaction has committed: nothing a hook does may make it look failed to its caller (a group of works
 * would run again), so a hook that throws, against its contract, is reported as a process warning instead.
 */
function runAfterCommit(list: ReadonlyArray<() => void>): void {
  for (const hook of list) {
    try {
      hook();
    } catch (e) {
      process.emitWarning(`An after-commit hook threw: ${(e as Error)?.stack ?? String(e)}`);
    }
  }
}

/**
 * Inside `inTransaction`: runs `hook` once the transaction has committed (in the order registered, before
 * the work's caller hears the answer), never if it rolls back; answers false, registering nothing, anywhere
 * else. A hook starts work of its own (the outbox's direct publish) and returns; one that throws cannot fail the
 * committed transaction (it is reported as a process warning).
 */
export function afterCommit(manager: EntityManager, hook: () => void): boolean {
  const own = manager.queryRunner ? hooks.get(manager.queryRunner) : undefined;
  if (!own) return false;
  own.afterCommit.push(hook);
  return true;
}

/**
 * Inside `inTransaction`: runs `hook` in the transaction once the work has returned, just before COMMIT
 * (in the order registered); what it defers travels with the COMMIT, and its failure fails the transaction.
 * For writes gathered over the whole work into one statement (the outbox's events). Answers false, registering
 * nothing, anywhere else.
 */
export function beforeCommit(manager: EntityManager, hook: () => Promise<void>): boolean {
  const own = manager.queryRunner ? hooks.get(manager.queryRunner) : undefined;
  if (!own) return false;
  own.beforeCommit.push(hook);
  return true;
}

/**
 * Inside `inTransaction`: the transaction's own state under `slot` (a writer's key: a module symbol, an
 * instance), made by `init` on its first use in the transaction (where the writer registers its hooks, e.g. a
 * `beforeCommit` that writes what was gathered). Undefined anywhere else.
 */
export function transactionState<T>(manager: EntityManager, slot: object | symbol, init: () => T): T | undefined {
  const own = manager.queryRunner ? hooks.get(manager.queryRunner) : undefined;
  if (!own) return undefined;
  if (!own.states.has(slot)) own.states.set(slot, init());
  return own.states.get(slot) as T;
}

/**
 * A write whose answer the work does not need: inside `inTransaction` it is sent now and checked at
 * commit (errors pass through `mapError`); anywhere else it simply runs.
 */
export async function deferStatement(
  manager: EntityManager,
  st: Statement,
  values: unknown[],
  mapError: (e: unknown) => unknown = (e) => e,
): Promise<void> {
  const run = runStatement(manager, st, values).then(
    () => undefined,
    (e: unknown) => {
      throw mapError(e);
    },
  );
  const list = manager.queryRunner ? pending.get(manager.queryRunner) : undefined;
  if (!list) return run;
  list.push(quietly(run));
}

/**
 * A statement whose rows the work reads only after the transaction: inside `inTransaction` it is sent
 * now, travels with `COMMIT` when the work returns without awaiting it, and its failure fails the commit as a
 * deferred write's does. The promise answers the rows (await it once the transaction is done); anywhere else
 * the statement simply runs.
 */
export function deferQuery<R extends QueryResultRow = QueryResultRow>(
  manager: EntityManager,
  st: Statement,
  values: unknown[],
): Promise<R[]> {
  const run = quietly(runStatement<R>(manager, st, values));
  const list = manager.queryRunner ? pending.get(manager.queryRunner) : undefined;
  if (list) list.push(run);
  return run;
}

/** Keeps an early rejection from being reported as unhandled before it is awaited. */
function quietly<T>(p: Promise<T>): Promise<T> {
  p.catch(() => undefined);
  return p;
}

async function failureAmong(list: Array<Promise<unknown>>): Promise<unknown> {
  const outcomes = await Promise.allSettled(list);
  const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
  return failed?.reason;
}

async function firstFailure(list: Array<Promise<unknown>>): Promise<void> {
  const reason = await failureAmong(list);
  if (reason !== undefined) throw reason;
}
