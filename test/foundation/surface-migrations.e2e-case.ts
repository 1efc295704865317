import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { dataSourceOptions, dropDatabase, ensureDatabase, migrateWithLock } from '@app/database';
import { migrations as paymentsMigrations } from '../../apps/payments/src/migrations';
import { PaymentCodePerEnvironment1769000200001 } from '../../apps/payments/src/migrations/1769000200001-payment-code-per-environment';
import { StoredCardAcquirer1769000200002 } from '../../apps/payments/src/migrations/1769000200002-stored-card-acquirer';
import { migrations as webhooksMigrations } from '../../apps/webhooks/src/migrations';
import { DeliveryErrorClass1769000200001 } from '../../apps/webhooks/src/migrations/1769000200001-delivery-error-class';
import { runState } from '../support/run-state';

type Migrations = readonly (new () => unknown)[];

/** #45 items 3, 6 and 9: databases deployed before these migrations upgrade with their data kept and classed. */
describe('upgrading deployed data: shared payment codes, stored cards’ acquirer, delivery error classes', () => {
  const opened: DataSource[] = [];
  const urls: string[] = [];
  afterAll(async () => {
    for (const ds of opened) await ds.destroy();
    for (const url of urls) await dropDatabase(url);
  });

  async function database(app: string, migrations: Migrations): Promise<DataSource> {
    const url = `${runState().pgBase}/t_${runState().runId}_${randomBytes(4).toString('hex')}_surf`;
    urls.push(url);
    await ensureDatabase(url);
    const ds = await new DataSource(
      dataSourceOptions({ app, url, entities: [], migrations: [...migrations] as never, poolSize: 2 }),
    ).initialize();
    opened.push(ds);
    await migrateWithLock(ds, `${app}:migrations`);
    return ds;
  }

  async function upgraded(app: string, all: Migrations, newHere: Migrations, seed: (db: DataSource) => Promise<void>) {
    const db = await database(
      app,
      all.filter((m) => !newHere.includes(m)),
    );
    await seed(db);
    await db.destroy();
    opened.splice(opened.indexOf(db), 1);
    const url = urls.at(-1)!;
    const again = await new DataSource(
      dataSourceOptions({ app, url, entities: [], migrations: [...all] as never, poolSize: 2 }),
    ).initialize();
    opened.push(again);
    await migrateWithLock(again, `${app}:migrations`);
    return again;
  }

  const payment = (db: DataSource, o: { merchant: string; code: string; env?: string; at: string; token?: string }) =>
    db.query(
      `INSERT INTO payments (id, merchant_code, environment, payment_code, order_code, status, intent, payment_method,
         amount_value, currency, exponent, connection_code, connection_name, acquirer, token, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, 'captured', 'purchase', 'card', 100, 'USD', 2, 'c', 'C', $6, $7, $8, $8)`,
      [
        randomUUID(),
        o.merchant,
        o.env ?? 'sandbox',
        o.code,
        `o-${randomUUID()}`,
        o.token ? 'adyen' : 'sandbox',
        o.token ? JSON.stringify({ token: o.token, expirationDate: '2030-01-31T23:59:59.999Z' }) : null,
        o.at,
      ],
    );

  it('payments: a code two merchants share stays the first merchant’s; cards get their payment’s acquirer', async () => {
    const db = await upgraded(
      'payments',
      paymentsMigrations,
      [PaymentCodePerEnvironment1769000200001, StoredCardAcquirer1769000200002],
      async (old) => {
        await payment(old, { merchant: 'later', code: 'shared', at: '2026-02-01' });
        await payment(old, { merchant: 'first', code: 'shared', at: '2026-01-01' });
        await payment(old, { merchant: 'third', code: 'shared', at: '2026-03-01' });
        await payment(old, { merchant: 'later', code: 'shared', env: 'production', at: '2026-02-01' });
        await payment(old, { merchant: 'solo', code: 'mine', at: '2026-01-01', token: 'vt_real' });
        await old.query(
          `INSERT INTO stored_cards (id, token, merchant_code, environment, shopper_id, key_id, pan_sealed, bin, last4,
             brand, card_type, expiry_month, expiry_year, created_at)
           VALUES ($1, 'vt_real', 'solo', 'sandbox', 's', 'k', '\\x00', '400000', '4301', 'visa', 'credit', '01', '2028', now()),
                  ($2, 'vt_orphan', 'solo', 'production', 's', 'k', '\\x00', '400000', '4301', 'visa', 'credit', '01', '2028', now())`,
          [randomUUID(), randomUUID()],
        );
      },
    );
    const rows = await db.query(
      `SELECT merchant_code, environment, code_shared FROM payments WHERE payment_code = 'shared'
        ORDER BY environment, merchant_code`,
    );
    expect(rows).toEqual([
      { merchant_code: 'later', environment: 'production', code_shared: false },
      { merchant_code: 'first', environment: 'sandbox', code_shared: false },
      { merchant_code: 'later', environment: 'sandbox', code_shared: true },
      { merchant_code: 'third', environment: 'sandbox', code_shared: true },
    ]);
    await expect(payment(db, { merchant: 'fourth', code: 'shared', at: '2026-04-01' })).rejects.toThrow(
      /payments_payment_code_environment/,
    );
    expect(await db.query('SELECT token, acquirer FROM stored_cards ORDER BY token')).toEqual([
      { token: 'vt_orphan', acquirer: null },
      { token: 'vt_real', acquirer: 'adyen' },
    ]);
  });

  it('webhooks: the tries logged with network text keep only its class', async () => {
    const texts: Record<string, string | null> = {
      'HTTP 503': 'http_status',
      'connect ECONNREFUSED 10.0.0.7:8443': 'refused',
      'socket hang up': 'reset',
      'no answer within 10000 ms': 'timeout',
      'connect EHOSTUNREACH 10.1.1.1:443': 'unreachable',
      'cannot resolve hooks.example.com: ENOTFOUND': 'dns',
      'write EPROTO 80ACECDE487F0000:error:0A00010B:SSL routines:wrong version number': 'tls',
      'certificate has expired': 'tls',
      'url resolves to a private, loopback or reserved address': 'private_target',
      'url must use https://': 'invalid_url',
      'endpoint merged into an older one': 'endpoint_deleted',
      'endpoint disabled': 'endpoint_disabled',
      'no signing secret': 'no_secret',
      'something else 10.9.9.9': 'network',
    };
    const ids = new Map<string, string>();
    const db = await upgraded('webhooks', webhooksMigrations, [DeliveryErrorClass1769000200001], async (old) => {
      const delivery = randomUUID();
      await old.query(
        `INSERT INTO webhook_deliveries (id, event_id, event_type, merchant_code, environment, target, url, body, status)
         VALUES ($1, $1, 'payment.captured', 'm', 'sandbox', 'endpoint', 'https://hooks.example.com/', '{}', 'dead')`,
        [delivery],
      );
      let attempt = 0;
      for (const text of Object.keys(texts)) {
        const id = randomUUID();
        ids.set(text, id);
        await old.query(
          `INSERT INTO webhook_attempts (id, delivery_id, attempt, status, due_at, error) VALUES ($1, $2, $3, 'failed', now(), $4)`,
          [id, delivery, ++attempt, text],
        );
      }
    });
    for (const [text, kind] of Object.entries(texts)) {
      const [row] = await db.query('SELECT error FROM webhook_attempts WHERE id = $1', [ids.get(text)]);
      expect([text, row.error]).toEqual([text, kind]);
    }
  });
});
