import type { PoolClient, QueryConfig, QueryResult, QueryResultRow } from 'pg';
import { DataSource, EntityManager, QueryRunner } from 'typeorm';
import { inPipelineMode, poolOf, socketOf } from './driver-internals';

/**
 * A named SQL statement for the hot paths. PostgreSQL parses and plans it once per connection and the
 * driver sends only Bind/Execute after that, and the call skips TypeORM's query builder: a purchase spends
 * its time in the acquirer and the commit, not in building SQL text.
 */
export interface Statement {
  readonly name: string;
  readonly text: string;
}

const declared = new Map<string, string>();

/** Declares a statement once, at module load; a second text under the same name is a programming error. */
export function statement(name: string, text: string): Statement {
  const earlier = declared.get(name);
  if (earlier !== undefined && earlier !== text) throw new Error(`SQL statement "${name}" declared twice`);
  declared.set(name, text);
  return { name, text };
}

/**
 * Runs a statement on the caller's transaction (the EntityManager of `inTransaction`) or, given the DataSource or
 * its manager, on any pooled connection. Answers the rows; errors are the driver's (`code`, `constraint`).
 */
export async function runStatement<R extends QueryResultRow = QueryResultRow>(
  on: EntityManager | DataSource,
  st: Statement,
  values: unknown[],
): Promise<R[]> {
  const runner = on instanceof EntityManager ? on.queryRunner : undefined;
  const query = { name: st.name, text: st.text, values };
  if (!runner) return (await poolOf(on).query<R>(query)).rows;
  const client = (await runner.connect()) as PoolClient;
  return (await sendOn<R>(runner, client, query)).rows;
}

interface Line {
  tail: Promise<unknown>;
}
const lines = new WeakMap<QueryRunner, Line>();

/**
 * From now on every statement sent on `runner`, through `sendOn` (hence runStatement) or through TypeORM (its
 * manager, repositories and query builders call `runner.query`), is issued once the one before it has been
 * answered: for a transaction that does not wait for its statements' answers (inTransaction) on a
 * connection outside pipeline mode, which must never be given a statement while another is in progress (pg
 * deprecates it; pg 9 refuses it). `false` ends it (before the runner is released).
 */
export function sendInLine(runner: QueryRunner, on: boolean): void {
  if (!on) {
    lines.delete(runner);
    delete (runner as Partial<QueryRunner>).query;
    return;
  }
  const line: Line = { tail: Promise.resolve() };
  lines.set(runner, line);
  const typeormQuery = runner.query;
  runner.query = ((...args: Parameters<QueryRunner['query']>) =>
    inLine(line, () => typeormQuery.apply(runner, args))) as QueryRunner['query'];
}

function inLine<T>(line: Line, send: () => Promise<T>): Promise<T> {
  const sent = line.tail.then(send);
  line.tail = sent.catch(() => undefined);
  return sent;
}

/**
 * Sends a statement on the runner's connection: at once in pipeline mode (the writes of one event-loop turn
 * leave together, see coalesceWrites), else in line after the statements sent before it when `sendInLine` is on.
 */
export function sendOn<R extends QueryResultRow = QueryResultRow>(
  runner: QueryRunner,
  client: PoolClient,
  query: string | QueryConfig,
): Promise<QueryResult<R>> {
  const line = lines.get(runner);
  if (line) return inLine(line, () => client.query<R>(query));
  coalesceWrites(client);
  return client.query<R>(query);
}

const corked = new WeakSet<object>();

/**
 * On a connection in pipeline mode, holds the socket's writes until the end of this event-loop turn, so the
 * statements issued meanwhile leave in one write (the driver writes each one as soon as it is issued).
 */
export function coalesceWrites(client: PoolClient): void {
  if (!inPipelineMode(client)) return;
  const stream = socketOf(client);
  if (corked.has(stream)) return;
  corked.add(stream);
  stream.cork();
  setImmediate(() => {
    corked.delete(stream);
    stream.uncork();
  });
}

/** Name of the unique constraint a statement broke, if that is what failed (TypeORM-wrapped or raw). */
export function uniqueViolation(e: unknown): string | undefined {
  const cause = (e as { driverError?: unknown } | null)?.driverError ?? e;
  const driver = cause as { code?: string; constraint?: string } | null;
  return driver?.code === '23505' ? (driver.constraint ?? '') : undefined;
}
