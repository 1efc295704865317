import type { Pool, PoolClient, QueryResultRow } from 'pg';
import { DataSource, EntityManager } from 'typeorm';

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
 * Runs a statement on the caller's transaction (the EntityManager of `pipelinedTransaction` or
 * `DataSource.transaction`) or, given the DataSource, on any pooled connection. Answers the rows; errors are the driver's (`code`, `constraint`).
 */
export async function runStatement<R extends QueryResultRow = QueryResultRow>(
  on: EntityManager | DataSource,
  st: Statement,
  values: unknown[],
): Promise<R[]> {
  const runner = on instanceof EntityManager ? on.queryRunner : undefined;
  const client: Pool | PoolClient = runner ? ((await runner.connect()) as PoolClient) : poolOf(on);
  if (runner) coalesceWrites(client as PoolClient);
  const result = await client.query<R>({ name: st.name, text: st.text, values });
  return result.rows;
}

type PipelinedClient = PoolClient & { pipeline?: boolean; connection?: { stream?: NodeJS.WritableStream & Corkable } };
interface Corkable {
  cork(): void;
  uncork(): void;
}
const corked = new WeakSet<object>();

/**
 * On a connection in pipeline mode, holds the socket's writes until the end of this event-loop turn, so the
 * statements issued meanwhile leave in one write (the driver writes each one as soon as it is issued).
 */
export function coalesceWrites(client: PoolClient): void {
  const stream = (client as PipelinedClient).pipeline ? (client as PipelinedClient).connection?.stream : undefined;
  if (!stream || corked.has(stream)) return;
  corked.add(stream);
  stream.cork();
  setImmediate(() => {
    corked.delete(stream);
    stream.uncork();
  });
}

export function poolOf(on: EntityManager | DataSource): Pool {
  const source = on instanceof DataSource ? on : on.connection;
  return (source.driver as unknown as { master: Pool }).master;
}

/** Name of the unique constraint a statement broke, if that is what failed (TypeORM-wrapped or raw). */
export function uniqueViolation(e: unknown): string | undefined {
  const cause = (e as { driverError?: unknown } | null)?.driverError ?? e;
  const driver = cause as { code?: string; constraint?: string } | null;
  return driver?.code === '23505' ? (driver.constraint ?? '') : undefined;
}
