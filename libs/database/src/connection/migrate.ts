import { DataSource, Migration } from 'typeorm';

/**
 * Runs pending migrations under a Postgres advisory lock, so replicas that start together migrate once and
 * the others wait, then find nothing to do. Migrations are additive (expand first, contract in a later
 * release), so old pods keep working while new ones roll out.
 */
export async function migrateWithLock(dataSource: DataSource, lockName: string): Promise<Migration[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock(hashtext($1))', [lockName]);
    try {
      return await dataSource.runMigrations({ transaction: 'each' });
    } finally {
      await runner.query('SELECT pg_advisory_unlock(hashtext($1))', [lockName]);
    }
  } finally {
    await runner.release();
  }
}
