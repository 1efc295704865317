import { DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, DataSourceOptions, EntitySchema, MixedList } from 'typeorm';
import { HealthCheck } from '@app/observability';
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
   * (pipelinedTransaction, deferStatement). Everything else behaves as before.
   */
  pipeline?: boolean;
  /**
   * `on-start` (the default): migrate as the app starts, under an advisory lock. `check`: only make sure that
   * nothing is pending and refuse to start otherwise; the migrate entry point ran them first, so the app's
   * database role needs no DDL rights.
   */
  migrate?: MigrationMode;
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
    extra: { max: o.poolSize ?? 20, pipeline: o.pipeline ?? false },
  };
}

/** One DataSource per service: created if missing, migrated on start, never synchronized. */
export function serviceDatabase(factory: () => ServiceDatabaseOptions): DynamicModule {
  return TypeOrmModule.forRootAsync({
    // Pending migrations under MIGRATIONS=check do not go away by retrying: the app stops at once.
    useFactory: () => ({ ...dataSourceOptions(factory()), toRetry: (e: unknown) => !(e instanceof PendingMigrations) }),
    dataSourceFactory: async (options) => {
      const o = factory();
      await ensureDatabase(o.url);
      const ds = await new DataSource(options!).initialize();
      if (o.migrate === 'check') await refusePendingMigrations(ds, o.app);
      else await migrateWithLock(ds, `${o.app}:migrations`);
      return ds;
    },
  });
}

class PendingMigrations extends Error {}

async function refusePendingMigrations(ds: DataSource, app: string): Promise<void> {
  if (!(await ds.showMigrations())) return;
  await ds.destroy();
  throw new PendingMigrations(
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
