import { DataSource } from 'typeorm';
import { dataSourceOptions, dropDatabase, ensureDatabase } from '@app/database';
import { gatewayMigrations } from '../../apps/gateway/src/migrations';
import { DropWebhookTables1768400000001 } from '../../apps/gateway/src/migrations/1768400000001-drop-webhook-tables';
import { WebhookEndpointUniqueUrl1768300000034 } from '../../apps/gateway/src/migrations/1768300000034-webhook-endpoint-unique-url';
import { WebhookSecretCipher } from '@app/cipher';
import { runState } from '../support/run-state';

/** A deployed database that holds duplicate endpoints (allowed before the unique index) migrates, merged. */
describe('migration to one live endpoint per url', () => {
  const url = `${runState().pgBase}/t_${runState().runId}_mig_webhook_urls`;
  // The gateway's webhook migrations, before its tables moved to the webhooks service.
  const all = gatewayMigrations(WebhookSecretCipher.fromConfig({})).filter((m) => m !== DropWebhookTables1768400000001);
  const open = (migrations: typeof all) =>
    new DataSource(dataSourceOptions({ app: 'gateway', url, entities: [], migrations, poolSize: 2 })).initialize();
  let db: DataSource;

  beforeAll(async () => {
    await ensureDatabase(url);
    db = await open(all.filter((m) => m !== WebhookEndpointUniqueUrl1768300000034));
    await db.runMigrations({ transaction: 'each' });
  });
  afterAll(async () => {
    await db?.destroy();
    await dropDatabase(url);
  });

  const endpoint = async (id: string, merchant: string, target: string, events: string[], o: object = {}) => {
    const row = { environment: 'sandbox', disabled: false, deletedAt: null, createdAt: `2026-01-0${id.at(-1)}`, ...o };
    await db.query(
      `INSERT INTO webhook_endpoints (id, merchant_code, environment, url, events, disabled, secret_key_id,
         secret_sealed, created_at, deleted_at)
       VALUES ($1, $2, $3, $4, $5, $6, 'k1', '\\x00', $7, $8)`,
      [id, merchant, row.environment, target, events, row.disabled, row.createdAt, row.deletedAt],
    );
  };
  const id = (n: number) => `00000000-0000-7000-8000-00000000000${n}`;

  it('keeps the oldest of each group with every type the group had; the others are deleted, their tries given up', async () => {
    await endpoint(id(1), 'acme', 'https://hooks.example.com/a', ['payment.captured'], { disabled: true });
    await endpoint(id(2), 'acme', 'https://HOOKS.example.com:443/a', ['invoice.paid', 'payment.captured']);
    await endpoint(id(3), 'acme', 'https://hooks.example.com/a', ['payment.refunded']);
    await endpoint(id(4), 'acme', 'https://hooks.example.com/a', ['*'], { environment: 'production' });
    await endpoint(id(5), 'acme', 'https://hooks.example.com/a', ['*'], { deletedAt: '2026-02-01' });
    await endpoint(id(6), 'other', 'https://hooks.example.com/a', ['*']);
    await endpoint(id(7), 'other', 'https://hooks.example.com/b', ['*']);
    await endpoint(id(8), 'other', 'https://hooks.example.com/b', ['payment.captured']);
    await db.query(
      `INSERT INTO webhook_deliveries (id, event_id, event_type, merchant_code, environment, endpoint_id, target,
         url, body, status)
       VALUES ($1, $1, 'invoice.paid', 'acme', 'sandbox', $2, 'endpoint', 'https://hooks.example.com/a', '{}', 'pending')`,
      [id(9), id(2)],
    );
    await db.query(
      `INSERT INTO webhook_attempts (id, delivery_id, attempt, status, due_at) VALUES ($1, $1, 1, 'pending', now())`,
      [id(9)],
    );

    await db.destroy();
    db = await open(all);
    expect((await db.runMigrations({ transaction: 'each' })).map((m) => m.name)).toEqual([
      'WebhookEndpointUniqueUrl1768300000034',
    ]);

    const rows = await db.query(
      `SELECT right(id::text, 1)::int AS n, url, events, disabled, deleted_at IS NOT NULL AS deleted
       FROM webhook_endpoints ORDER BY id`,
    );
    expect(rows).toEqual([
      // The oldest keeps its id and secret, takes the group's types, and is enabled since one of them was.
      {
        n: 1,
        url: 'https://hooks.example.com/a',
        events: ['invoice.paid', 'payment.captured', 'payment.refunded'],
        disabled: false,
        deleted: false,
      },
      {
        n: 2,
        url: 'https://hooks.example.com/a',
        events: ['invoice.paid', 'payment.captured'],
        disabled: false,
        deleted: true,
      },
      { n: 3, url: 'https://hooks.example.com/a', events: ['payment.refunded'], disabled: false, deleted: true },
      { n: 4, url: 'https://hooks.example.com/a', events: ['*'], disabled: false, deleted: false },
      { n: 5, url: 'https://hooks.example.com/a', events: ['*'], disabled: false, deleted: true },
      { n: 6, url: 'https://hooks.example.com/a', events: ['*'], disabled: false, deleted: false },
      { n: 7, url: 'https://hooks.example.com/b', events: ['*'], disabled: false, deleted: false },
      { n: 8, url: 'https://hooks.example.com/b', events: ['payment.captured'], disabled: false, deleted: true },
    ]);
    expect(await db.query('SELECT status FROM webhook_deliveries')).toEqual([{ status: 'dead' }]);
    expect(await db.query('SELECT status, error FROM webhook_attempts')).toEqual([
      { status: 'dead', error: 'endpoint merged into an older one' },
    ]);
    // From now on the index refuses a second live row.
    await expect(
      endpoint(id(0), 'other', 'https://hooks.example.com/b', ['*'], { createdAt: '2026-03-01' }),
    ).rejects.toThrow(/webhook_endpoints_live_url/);
  });
});
