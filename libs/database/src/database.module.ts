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
}

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
    useFactory: () => dataSourceOptions(factory()),
    dataSourceFactory: async (options) => {
      const o = factory();
      await ensureDatabase(o.url);
      const ds = await new DataSource(options!).initialize();
      await migrateWithLock(ds, `${o.app}:migrations`);
      return ds;
    },
  });
}

export function databaseHealth(dataSource: () => DataSource): HealthCheck {
  return { name: 'database', check: async () => void (await dataSource().query('SELECT 1')) };
}
