import type { FactoryProvider } from '@nestjs/common';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { Metrics } from '@app/observability';
import { poolIfOpen } from '../pipelined/driver-internals';
import { runStatement, Statement } from '../pipelined/prepared';

/**
 * The connection pool's use, read at each scrape: connections busy and idle, callers waiting for one, and the
 * pool's size. busy / max near 1 with callers waiting is a saturated pool.
 */
export function poolGauges(metrics: Metrics, dataSource: () => DataSource | undefined): void {
  const pool = (): Pool | undefined => poolIfOpen(dataSource());
  metrics.gaugeAtScrape('db_pool_connections', 'Database pool connections, by state: busy or idle', ['state'], () => {
    const p = pool();
    return p
      ? [
          [{ state: 'busy' }, p.totalCount - p.idleCount],
          [{ state: 'idle' }, p.idleCount],
        ]
      : [];
  });
  metrics.gaugeAtScrape('db_pool_waiting_clients', 'Callers waiting for a database pool connection', [], () => {
    const p = pool();
    return p ? [[{}, p.waitingCount]] : [];
  });
  metrics.gaugeAtScrape('db_pool_max_connections', 'Size of the database pool', [], () => {
    const p = pool();
    return p ? [[{}, p.options.max ?? 10]] : [];
  });
}

/** A statement answering one row `{n, age}`: how many rows wait, and the oldest one's wait in seconds. */
export interface BacklogQuery {
  statement: Statement;
  /** Values of the statement's parameters, read at each scrape. */
  values?: () => unknown[];
  count: { name: string; help: string };
  age: { name: string; help: string };
}

/** How long one backlog reading serves both its gauges (they are collected one after the other in a scrape). */
const READING_MS = 1_000;

/** Two gauges read together at each scrape: the size of a backlog and the age of its oldest item (0 when empty). */
export function backlogGauges(metrics: Metrics, dataSource: DataSource, q: BacklogQuery): void {
  let reading: { at: number; value: Promise<{ n: number; age: number }> } | undefined;
  const read = (): Promise<{ n: number; age: number }> => {
    if (!reading || Date.now() - reading.at > READING_MS) {
      const value = runStatement<{ n: number; age: number }>(dataSource, q.statement, q.values?.() ?? []).then(
        ([row]) => ({ n: Number(row?.n ?? 0), age: Number(row?.age ?? 0) }),
      );
      reading = { at: Date.now(), value };
    }
    return reading.value;
  };
  metrics.gaugeAtScrape(q.count.name, q.count.help, [], async () => [[{}, (await read()).n]]);
  metrics.gaugeAtScrape(q.age.name, q.age.help, [], async () => [[{}, (await read()).age]]);
}

/** `backlogGauges` as a provider of the module that owns the queue: registered once, when the app starts. */
export const backlogGaugesProvider = (q: BacklogQuery): FactoryProvider<void> => ({
  provide: Symbol(`${q.count.name} gauges`),
  inject: [Metrics, DataSource],
  useFactory: (metrics: Metrics, dataSource: DataSource) => backlogGauges(metrics, dataSource, q),
});
