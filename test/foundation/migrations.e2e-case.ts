import { DataSource } from 'typeorm';
import { dataSourceOptions, dropDatabase, ensureDatabase, migrateWithLock } from '@app/database';
import { migrations as billingMigrations } from '../../apps/billing/src/migrations';
import { gatewayMigrations } from '../../apps/gateway/src/migrations';
import { WebhookSecretCipher } from '@app/cipher';
import { migrations as linksMigrations } from '../../apps/payment-links/src/migrations';
import { migrations as paymentsMigrations } from '../../apps/payments/src/migrations';
import { runState } from '../support/run-state';

const apps = [
  ['gateway', gatewayMigrations(WebhookSecretCipher.fromConfig({}))],
  ['payments', paymentsMigrations],
  ['payment-links', linksMigrations],
  ['billing', billingMigrations],
] as const;

describe('migrations', () => {
  it.each(apps)('%s migrates an empty database once; a second run is a no-op', async (app, migrations) => {
    const url = `${runState().pgBase}/t_${runState().runId}_mig_${app.replace('-', '_')}`;
    await ensureDatabase(url);
    await ensureDatabase(url); // idempotent
    const open = () =>
      new DataSource(
        dataSourceOptions({ app, url, entities: [], migrations: [...migrations], poolSize: 2 }),
      ).initialize();
    const [a, b] = await Promise.all([open(), open()]);
    try {
      // Two replicas starting together: the advisory lock lets one migrate, the other finds nothing to do.
      const [ranA, ranB] = await Promise.all([
        migrateWithLock(a, `${app}:migrations`),
        migrateWithLock(b, `${app}:migrations`),
      ]);
      expect(ranA.length + ranB.length).toBe(migrations.length);
      expect(await migrateWithLock(a, `${app}:migrations`)).toEqual([]);
      const table = `${app.replace('-', '_')}_migrations`;
      const rows = await a.query(`SELECT name FROM ${table} ORDER BY id`);
      expect(rows.map((r: { name: string }) => r.name)).toEqual(migrations.map((m) => m.name));
      const outbox = await a.query("SELECT to_regclass('public.outbox') AS t");
      expect(outbox[0].t).toBe('outbox');
    } finally {
      await a.destroy();
      await b.destroy();
      await dropDatabase(url);
    }
  });

  it('never synchronizes schemas from entities', () => {
    const options = dataSourceOptions({ app: 'x', url: 'postgres://h/db', entities: [], migrations: [] });
    expect(options.synchronize).toBe(false);
    expect(options.migrationsRun).toBe(false);
  });
});
