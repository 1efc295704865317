/**
 * Connection and migrations: how a service gets its one PostgreSQL DataSource (`serviceDatabase`: the database
 * created when missing, its migrations run under an advisory lock or only checked, the connections' settings in
 * `dataSourceOptions`), the start-up check that the server runs autovacuum, the migrate entry point's work
 * (`migrateDatabase`), the health check and the pool's and backlogs' gauges (`poolGauges`, `backlogGauges`). Nothing here runs on a request's path.
 */
export * from './autovacuum';
export * from './database-metrics';
export * from './database.module';
export * from './ensure-database';
export * from './migrate';
