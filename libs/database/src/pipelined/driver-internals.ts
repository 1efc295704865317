import type { Pool, PoolClient } from 'pg';
import { DataSource, EntityManager, QueryRunner } from 'typeorm';

/**
 * Every place the platform reaches past the public API of pg or TypeORM, in one file. Each reach checks what it
 * finds and throws DriverInternalsError, naming the library, when an upgrade moved it, instead of silently
 * doing something else. package.json pins `pg` and `typeorm` to exact versions for these reaches, and
 * driver-internals.spec.ts fails when the installed libraries no longer have what they rely on.
 *
 * - TypeORM's PostgresDriver keeps its pg Pool in `driver.master` (advisory locks on a connection of their own,
 *   the pool gauges, named statements outside a transaction).
 * - pg's Client keeps its pipeline-mode flag in `pipeline` and its socket in `connection.stream` (corked so
 *   that the statements of one event-loop turn leave in one write).
 * - TypeORM's QueryRunner says whether it is in a transaction through `isTransactionActive`, which its own
 *   EntityManager methods read before opening one; `inTransaction` opens its transaction itself, without
 *   waiting for BEGIN's answer, so it sets the flag.
 */
export class DriverInternalsError extends Error {
  constructor(library: 'pg' | 'typeorm', what: string) {
    super(
      `${library} changed: ${what}. libs/database/src/pipelined/driver-internals.ts relies on it; ` +
        'check the new version and update that file before moving the pin in package.json',
    );
  }
}

/** The pg Pool behind a DataSource (or an EntityManager's DataSource), once it is initialized. */
export function poolOf(on: EntityManager | DataSource): Pool {
  const source = on instanceof DataSource ? on : on.connection;
  const pool = (source.driver as unknown as { master?: unknown }).master;
  if (!isPool(pool)) throw new DriverInternalsError('typeorm', 'the postgres driver has no pg Pool in `master`');
  return pool;
}

/** poolOf, or undefined before the DataSource is initialized and after it is destroyed. */
export function poolIfOpen(ds: DataSource | undefined): Pool | undefined {
  return ds?.isInitialized ? poolOf(ds) : undefined;
}

function isPool(value: unknown): value is Pool {
  const p = value as Partial<Pool> | undefined;
  return (
    typeof p?.connect === 'function' &&
    typeof p.totalCount === 'number' &&
    typeof p.idleCount === 'number' &&
    typeof p.waitingCount === 'number'
  );
}

interface ClientInternals {
  pipeline?: unknown;
  connection?: { stream?: Partial<Corkable> };
}
export interface Corkable {
  cork(): void;
  uncork(): void;
}

/** Whether the connection runs in pg's pipeline mode (`pipeline: true` in the pool's options). */
export function inPipelineMode(client: PoolClient): boolean {
  const flag = (client as unknown as ClientInternals).pipeline;
  if (typeof flag !== 'boolean') throw new DriverInternalsError('pg', 'Client has no boolean `pipeline` flag');
  return flag;
}

/** The connection's socket, to cork and uncork its writes. */
export function socketOf(client: PoolClient): Corkable {
  const stream = (client as unknown as ClientInternals).connection?.stream;
  if (typeof stream?.cork !== 'function' || typeof stream.uncork !== 'function') {
    throw new DriverInternalsError('pg', 'Client has no corkable socket in `connection.stream`');
  }
  return stream as Corkable;
}

/** Tells TypeORM's QueryRunner that a transaction it did not open is (or is no longer) in progress on it. */
export function markTransactionActive(runner: QueryRunner, active: boolean): void {
  if (typeof runner.isTransactionActive !== 'boolean') {
    throw new DriverInternalsError('typeorm', 'QueryRunner has no boolean `isTransactionActive`');
  }
  (runner as { isTransactionActive: boolean }).isTransactionActive = active;
}
