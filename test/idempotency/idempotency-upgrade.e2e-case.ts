import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { CallerContext } from '@app/contracts';
import { dataSourceOptions, dropDatabase, ensureDatabase, migrateWithLock, inTransaction } from '@app/database';
import {
  canonicalJson,
  CreateIdempotencyKeys1763700000001,
  IdempotencyKeyLeases1768300000000,
  IdempotencyRepository,
  IdempotencyService,
} from '@app/idempotency';
import { migrations as billingMigrations } from '../../apps/billing/src/migrations';
import { BillingIdempotencyMoved1768300000001 } from '../../apps/billing/src/migrations/1768300000001-billing-idempotency-moved';
import { migrations as linksMigrations } from '../../apps/payment-links/src/migrations';
import { migrations as paymentsMigrations } from '../../apps/payments/src/migrations';
import { runState } from '../support/run-state';

type Migrations = readonly (new () => unknown)[];
const NEW_HERE: Migrations = [
  CreateIdempotencyKeys1763700000001,
  IdempotencyKeyLeases1768300000000,
  BillingIdempotencyMoved1768300000001,
];
/** The migrations of the release before this one (which had none of these). */
const previous = (all: Migrations) => all.filter((m) => !NEW_HERE.includes(m));

/** `idempotency_keys` as the first migrations of payments and payment-links created it before the library did. */
const OLD_TABLES = {
  payments: `CREATE TABLE idempotency_keys (
      merchant_code text NOT NULL, environment text NOT NULL, idempotency_key text NOT NULL, operation text NOT NULL,
      request_hash text NOT NULL, response_status int NOT NULL, response_body jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (merchant_code, environment, idempotency_key))`,
  'payment-links': `CREATE TABLE idempotency_keys (
      merchant_code text NOT NULL, environment text NOT NULL, idempotency_key text NOT NULL,
      request_hash text NOT NULL, response_body jsonb, created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (merchant_code, environment, idempotency_key))`,
};

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const fingerprintKey = randomBytes(32).toString('base64');
const ctx = (key?: string): CallerContext =>
  ({ merchantCode: 'm1', environment: 'sandbox', requestId: 'r', idempotencyKey: key }) as CallerContext;

/** Databases deployed by the release before this one, upgraded: the keys they hold keep working. */
describe('idempotency keys across the upgrade to the shared table', () => {
  const open: DataSource[] = [];
  const urls: string[] = [];
  afterAll(async () => {
    for (const ds of open) await ds.destroy();
    for (const url of urls) await dropDatabase(url);
  });

  async function database(app: string, migrations: Migrations): Promise<DataSource> {
    const url = `${runState().pgBase}/t_${runState().runId}_${randomBytes(4).toString('hex')}_up`;
    if (!urls.includes(url)) urls.push(url);
    await ensureDatabase(url);
    const ds = await new DataSource(
      dataSourceOptions({ app, url, entities: [], migrations: [...migrations] as never, poolSize: 2 }),
    ).initialize();
    open.push(ds);
    return ds;
  }
  const reopen = async (app: string, from: DataSource, migrations: Migrations) => {
    const url = (from.options as { url: string }).url;
    const ds = await new DataSource(
      dataSourceOptions({ app, url, entities: [], migrations: [...migrations] as never, poolSize: 2 }),
    ).initialize();
    open.push(ds);
    return ds;
  };

  it.each([
    ['payments', paymentsMigrations],
    ['payment-links', linksMigrations],
  ] as const)('%s: the table its own migrations made is kept, and its keys still replay', async (app, all) => {
    const before = await database(app, previous(all));
    await before.query(OLD_TABLES[app]);
    await migrateWithLock(before, `${app}:migrations`);
    const body = { amount: { value: 1, currency: 'USD' }, metadata: { b: '2', a: '1' } };
    await before.query(
      `INSERT INTO idempotency_keys (merchant_code, environment, idempotency_key, operation, request_hash,
         response_status, response_body) VALUES ('m1', 'sandbox', 'old', 'create', $1, 201, '{"id":"old"}')`,
      [sha(canonicalJson(body))],
    );
    const after = await reopen(app, before, all);
    const ran = await migrateWithLock(after, `${app}:migrations`);
    expect(ran.map((m) => m.name)).toEqual(['CreateIdempotencyKeys1763700000001', 'IdempotencyKeyLeases1768300000000']);
    const service = new IdempotencyService(new IdempotencyRepository(after), after, { fingerprintKey });
    expect(await service.earlierAnswer(ctx('old'), 'create', { ...body })).toEqual({ id: 'old' });
    const key = randomUUID();
    expect(await service.transaction(ctx(key), 'create', body, 201, async () => ({ id: 'new' }))).toEqual({
      id: 'new',
    });
    expect(await inTransaction(after, (m) => service.claim(m, ctx(key), 'create', body))).toEqual({
      replay: { id: 'new' },
    });
    // Run again on a database that has everything: nothing fails.
    const q = after.createQueryRunner();
    for (const M of [CreateIdempotencyKeys1763700000001, IdempotencyKeyLeases1768300000000]) await new M().up(q);
    await q.release();
  });

  it("billing: the keys of its own table younger than 24 hours move, marked by their fingerprint's algorithm", async () => {
    const before = await database('billing', previous(billingMigrations));
    await migrateWithLock(before, 'billing:migrations');
    const op = 'subscription.create';
    const body = { planId: 7, metadata: { cart: 'c-1', channel: 'web' } };
    const asSent = sha(`${op}\n${JSON.stringify(body)}`);
    const insert = (key: string, hash: string, response: unknown, age = '1 hour') =>
      before.query(
        `INSERT INTO billing_idempotency
           (merchant_code, environment, key, operation, request_hash, resource_id, response, created_at)
         VALUES ('m1', 'sandbox', $1, $2, $3, $4, $5, now() - $6::interval)`,
        [key, op, hash, randomUUID(), response === null ? null : JSON.stringify(response), age],
      );
    await insert('answered', asSent, { id: 'a' });
    await insert('answered-v2', `v2:${sha(canonicalJson(body))}`, { id: 'b' });
    await insert('released', asSent, null);
    await insert('expired', asSent, { id: 'c' }, '25 hours');
    const after = await reopen('billing', before, billingMigrations);
    await migrateWithLock(after, 'billing:migrations');
    const rows = await after.query(
      `SELECT idempotency_key AS key, request_hash AS hash, response_status AS status, resource_id IS NOT NULL AS kept
       FROM idempotency_keys ORDER BY 1`,
    );
    expect(rows).toEqual([
      { key: 'answered', hash: `v1-as-sent:${asSent}`, status: 200, kept: true },
      { key: 'answered-v2', hash: `v2:${sha(canonicalJson(body))}`, status: 200, kept: true },
      { key: 'released', hash: `v1-as-sent:${asSent}`, status: null, kept: true },
    ]);
    const lease = { ms: 60_000, keepResourceId: true, callKeyPrefix: 'billing' };
    const service = new IdempotencyService(new IdempotencyRepository(after), after, { fingerprintKey, lease });
    const work = jest.fn(async () => ({ id: 'new' }));
    expect(await service.leased(ctx('answered'), op, body, work)).toEqual({ id: 'a' });
    expect(await service.leased(ctx('answered-v2'), op, { metadata: body.metadata, planId: 7 }, work)).toEqual({
      id: 'b',
    });
    await expect(service.leased(ctx('answered'), op, { ...body, planId: 8 }, work)).rejects.toMatchObject({
      code: 'IDEMPOTENCY_KEY_REUSED',
    });
    expect(work).not.toHaveBeenCalled();
  });
});
