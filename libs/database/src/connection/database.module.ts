import { DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, DataSourceOptions, EntitySchema, MixedList } from 'typeorm';
import { HealthCheck } from '@app/observability';
import { autovacuumCheck, autovacuumSetting } from './autovacuum';
import { ensureDatabase } from './ensure-database';
import { migrateWithLock } from './migrate';

export interface ServiceDatabaseOptions {
  /** App name: names the migrations table and the advisory lock. */
  app: string;
  url: string;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities: MixedList<Function | string | EntitySchema>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  migrations: Function[];
  poolSize?: number;
  /**
   * Connections in the driver's pipeline mode: statements are sent without waiting for the previous answer
   * (inTransaction, deferStatement). Everything else behaves as before.
   */
  pipeline?: boolean;
  /**
   * `on-start` (the default): migrate as the app starts, under an advisory lock. `check`: only make sure that
   * nothing is pending and refuse to start otherwise; the migrate entry point ran them first, so the app's
   * database role needs no DDL rights.
   */
  migrate?: MigrationMode;
  /**
   * What a start does when the server runs without autovacuum (see autovacuumCheck): refuse (production, unless
   * ALLOW_AUTOVACUUM_OFF accepts it), or say so through `warn` (the default: a process warning).
   */
  autovacuumOff?: { refuse: boolean; warn: (message: string) => void };
}

export type MigrationMode = 'on-start' | 'check';

export function dataSourceOptions(o: ServiceDatabaseOptions): DataSourceOptions {
  return {
    type: 'postgres',
    url: o.url,
    entities: o.entities,
    migrations: o.migrations,
    migrationsTableName: `${o.app.replace(/-/g, '_')}_migrations`,
    migrationsRun: false,
    synchronize: false,
    extra: {
      max: o.poolSize ?? 20,
      pipeline: o.pipeline ?? false,
      // Each run of a prepared statement is planned for its values and the tables of the moment: a plan cached
      // while a table was small (a fresh database, a queue after a quiet hour) would otherwise be kept by the
      // connection as the table grows, and read all of it on every run until the next ANALYZE. A random page read
      // is costed as the services' hot tables cost it, cached or on SSD (1.1, not the disk-era 4): otherwise a batch
      // of a few hundred keys is planned as a scan of a table of 50,000 rows (10 ms where its index took 1.6 ms).
      options: '-c plan_cache_mode=force_custom_plan -c random_page_cost=1.1',
    },
  };
}

/** One DataSource per service: created if missing, migrated on start, never synchronized. */
export function serviceDatabase(factory: () => ServiceDatabaseOptions): DynamicModule {
  return TypeOrmModule.forRootAsync({
    // A refused start (pending migrations under MIGRATIONS=check, autovacuum off) does not go away by retrying.
    useFactory: () => ({ ...dataSourceOptions(factory()), toRetry: (e: unknown) => !(e instanceof RefusedStart) }),
    dataSourceFactory: async (options) => {
      const o = factory();
      await ensureDatabase(o.url);
      const ds = await new DataSource(options!).initialize();
      const autovacuum = autovacuumCheck(await autovacuumSetting(ds), o.app, o.autovacuumOff?.refuse ?? false);
      if (autovacuum?.refuse) {
        await ds.destroy();
        throw new RefusedStart(autovacuum.message);
      }
      if (autovacuum) (o.autovacuumOff?.warn ?? ((m: string) => process.emitWarning(m)))(autovacuum.message);
      if (o.migrate === 'check') await refusePendingMigrations(ds, o.app);
      else await migrateWithLock(ds, `${o.app}:migrations`);
      return ds;
    },
  });
}

/** A start refused for a reason that retrying does not change: the app stops at once. */
class RefusedStart extends Error {}

async function refusePendingMigrations(ds: DataSource, app: string): Promise<void> {
  if (!(await ds.showMigrations())) return;
  await ds.destroy();
  throw new RefusedStart(
    `the ${app} database has pending migrations and MIGRATIONS=check: run the migrate entry point first (node dist/apps/migrate/src/main.js ${app})`,
  );
}

/** The migrate entry point's work for one app: create its database if missing and run what is pending. */
export async function migrateDatabase(o: Omit<ServiceDatabaseOptions, 'entities'>): Promise<string[]> {
  await ensureDatabase(o.url);
  // Two connections: migrateWithLock holds one for the advisory lock while the migrations run on the other.
  const ds = await new DataSource(dataSourceOptions({ ...o, entities: [], poolSize: 2 })).initialize();
  try {
    return (await migrateWithLock(ds, `${o.app}:migrations`)).map((m) => m.name);
  } finally {
    await ds.destroy();
  }
}

export function databaseHealth(dataSource: () => DataSource): HealthCheck {
  return { name: 'database', check: async () => void (await dataSource().query('SELECT 1')) };
}
