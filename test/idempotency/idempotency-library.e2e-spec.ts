import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import type { CallerContext } from '@app/contracts';
import { ensureDatabase, pipelinedTransaction } from '@app/database';
import { DomainError } from '@app/errors';
import {
  canonicalJson,
  IdempotencyRepository,
  IdempotencyService,
  IdempotencySweepLoop,
  KeyTaken,
} from '@app/idempotency';
import { runState } from '../support/run-state';

/** The table every service keeps its keys in (created by each service's migrations). */
const TABLE = `
  CREATE TABLE idempotency_keys (
    merchant_code text NOT NULL,
    environment text NOT NULL,
    idempotency_key text NOT NULL,
    operation text NOT NULL,
    request_hash text NOT NULL,
    response_status int,
    response_body json,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (merchant_code, environment, idempotency_key)
  )`;

const silent = { info: () => undefined, warn: () => undefined } as never;

async function codeOf(p: Promise<unknown>): Promise<string | undefined> {
  try {
    await p;
  } catch (e) {
    return e instanceof DomainError ? e.code : e instanceof KeyTaken ? 'KeyTaken' : String(e);
  }
  return undefined;
}

/** The one idempotency behaviour of every service, on a PostgreSQL database of its own. */
describe('@app/idempotency on PostgreSQL', () => {
  let url: string;
  let ds: DataSource;
  let keys: IdempotencyRepository;
  let service: IdempotencyService;

  const ctx = (key?: string, environment: 'sandbox' | 'production' = 'sandbox'): CallerContext =>
    ({ merchantCode: 'm1', environment, requestId: 'r', idempotencyKey: key }) as CallerContext;
  const row = async (key: string) =>
    ((await ds.query('SELECT * FROM idempotency_keys WHERE idempotency_key = $1', [key])) as any[])[0];

  beforeAll(async () => {
    url = `${runState().pgBase}/t_${runState().runId}_${randomBytes(4).toString('hex')}_idem`;
    await ensureDatabase(url);
    ds = await new DataSource({ type: 'postgres', url, extra: { max: 6, pipeline: true } }).initialize();
    await ds.query(TABLE);
    keys = new IdempotencyRepository(ds);
    service = new IdempotencyService(keys, ds, { requireKeyInProduction: true });
  });
  afterAll(async () => {
    await ds?.destroy();
    const pg = new Client({ connectionString: `${runState().pgBase}/postgres` });
    await pg.connect();
    await pg.query(`DROP DATABASE IF EXISTS "${url.slice(url.lastIndexOf('/') + 1)}" WITH (FORCE)`);
    await pg.end();
  });

  it('one transaction: the key claimed, the answer stored with the work; a replay runs nothing', async () => {
    const key = randomUUID();
    let runs = 0;
    const work = async (m: { query(sql: string): Promise<unknown> }) => {
      runs++;
      await m.query('SELECT 1');
      return { id: `link-${runs}` };
    };
    const body = { amount: { value: 1, currency: 'USD' }, metadata: { cart: 'c', channel: 'web', tier: 'gold' } };
    const reordered = { metadata: { tier: 'gold', cart: 'c', channel: 'web' }, amount: { currency: 'USD', value: 1 } };
    expect(await service.transaction(ctx(key), 'create', body, 201, work)).toEqual({ id: 'link-1' });
    expect(await service.transaction(ctx(key), 'create', reordered, 201, work)).toEqual({ id: 'link-1' });
    expect(await service.earlierAnswer(ctx(key), 'create', reordered)).toEqual({ id: 'link-1' });
    expect(runs).toBe(1);
    expect(await row(key)).toMatchObject({
      operation: 'create',
      response_status: 201,
      response_body: { id: 'link-1' },
    });
    const other = { ...body, amount: { value: 2, currency: 'USD' } };
    expect(await codeOf(service.transaction(ctx(key), 'create', other, 201, work))).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await codeOf(service.transaction(ctx(key), 'refund', body, 201, work))).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(runs).toBe(1);
    // Without a key the work simply runs; an error in the work stores nothing.
    expect(await service.transaction(ctx(), 'create', body, 201, work)).toEqual({ id: 'link-2' });
    const failing = randomUUID();
    await expect(
      service.transaction(ctx(failing), 'create', body, 201, () => Promise.reject(new Error('no'))),
    ).rejects.toThrow('no');
    expect(await row(failing)).toBeUndefined();
  });

  it('a twin in flight in one transaction waits for the first and replays its answer', async () => {
    const key = randomUUID();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const first = service.transaction(ctx(key), 'create', { a: 1 }, 201, async () => {
      await gate;
      return { id: 'first' };
    });
    await new Promise((r) => setTimeout(r, 100));
    const twin = service.transaction(ctx(key), 'create', { a: 1 }, 201, () => Promise.resolve({ id: 'twin' }));
    await new Promise((r) => setTimeout(r, 100));
    release();
    expect(await Promise.all([first, twin])).toEqual([{ id: 'first' }, { id: 'first' }]);
  });

  it('reserve, call, record: 409 while the key is in progress, the answer once recorded', async () => {
    const key = randomUUID();
    const claim = await pipelinedTransaction(ds, (m) => service.claim(m, ctx(key), 'purchase', { a: 1 }));
    expect(claim).toEqual({ requestHash: expect.stringMatching(/^v2:/) });
    expect(await codeOf(pipelinedTransaction(ds, (m) => service.claim(m, ctx(key), 'purchase', { a: 1 })))).toBe(
      'IDEMPOTENCY_IN_PROGRESS',
    );
    expect(await codeOf(service.earlierAnswer(ctx(key), 'purchase', { a: 2 }))).toBe('IDEMPOTENCY_IN_PROGRESS');
    await pipelinedTransaction(ds, (m) => service.complete(m, ctx(key), { id: 'p1' }));
    const replay = await pipelinedTransaction(ds, (m) => service.claim(m, ctx(key), 'purchase', { a: 1 }));
    expect(replay).toEqual({ replay: { id: 'p1' } });
    expect((await row(key)).response_status).toBe(200);
  });

  it('a claim sent in one batch fails its transaction when the key has a row; the earlier answer decides', async () => {
    const key = randomUUID();
    const hold = (body: unknown) => pipelinedTransaction(ds, (m) => service.hold(m, ctx(key), 'purchase', body));
    expect(await hold({ a: 1 })).toMatch(/^v2:/);
    const taken = await hold({ a: 1 }).catch((e: unknown) => e);
    expect(taken).toBeInstanceOf(KeyTaken);
    expect(await codeOf(service.earlierAnswer(ctx(key), 'purchase', { a: 1 }, taken))).toBe('IDEMPOTENCY_IN_PROGRESS');
    // Released (the call failed, nothing recorded): the key is free again, and a KeyTaken meanwhile is a 409.
    await pipelinedTransaction(ds, (m) => service.release(m, ctx(key)));
    expect(await row(key)).toBeUndefined();
    expect(await codeOf(service.earlierAnswer(ctx(key), 'purchase', { a: 1 }, taken))).toBe('IDEMPOTENCY_IN_PROGRESS');
    expect(await service.earlierAnswer(ctx(key), 'purchase', { a: 1 }, new Error('other'))).toBeUndefined();
    await hold({ a: 1 });
    await pipelinedTransaction(ds, (m) => service.complete(m, ctx(key), { id: 'p2' }));
    expect(await service.earlierAnswer(ctx(key), 'purchase', { a: 1 }, taken)).toEqual({ id: 'p2' });
    expect(await codeOf(service.earlierAnswer(ctx(key), 'purchase', { a: 3 }, taken))).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('keys written before the versioned fingerprint still replay a retry of the same request', async () => {
    const key = randomUUID();
    const body = { metadata: { cart: 'c', channel: 'web', tier: 'gold' }, planId: 3 };
    const unversioned = createHash('sha256').update(canonicalJson(body)).digest('hex');
    await ds.query(`INSERT INTO idempotency_keys VALUES ('m1', 'sandbox', $1, 'purchase', $2, 200, $3, now())`, [
      key,
      unversioned,
      JSON.stringify({ id: 'old' }),
    ]);
    const retry = { planId: 3, metadata: { tier: 'gold', channel: 'web', cart: 'c' } };
    expect(await pipelinedTransaction(ds, (m) => service.claim(m, ctx(key), 'purchase', retry))).toEqual({
      replay: { id: 'old' },
    });
    expect(await codeOf(service.earlierAnswer(ctx(key), 'purchase', { ...retry, planId: 4 }))).toBe(
      'IDEMPOTENCY_KEY_REUSED',
    );
  });

  it('checks the key: 400 for a malformed one, and for none where the service requires one', async () => {
    const claim = (c: CallerContext) => pipelinedTransaction(ds, (m) => service.claim(m, c, 'purchase', {}));
    expect(await codeOf(claim(ctx('x'.repeat(256))))).toBe('VALIDATION_FAILED');
    expect(await codeOf(claim(ctx(undefined, 'production')))).toBe('IDEMPOTENCY_KEY_REQUIRED');
    expect(await claim(ctx())).toEqual({});
    const optional = new IdempotencyService(keys, ds);
    expect(await optional.transaction(ctx(undefined, 'production'), 'create', {}, 201, async () => 'done')).toBe(
      'done',
    );
  });

  it('one sweep deletes answered keys older than 24 hours, never a key in progress', async () => {
    const insert = (key: string, age: string, status: number | null) =>
      ds.query(
        `INSERT INTO idempotency_keys VALUES ('sweep', 'sandbox', $1, 'purchase', 'h', $2, $3, now() - $4::interval)`,
        [key, status, status === null ? null : '{}', age],
      );
    await insert('old', '25 hours', 200);
    await insert('old-in-progress', '25 hours', null);
    await insert('young', '23 hours', 200);
    const sweeper = new IdempotencySweepLoop(keys, silent);
    expect(await sweeper.runOnce()).toBe(1);
    const left = (await ds.query(
      `SELECT idempotency_key AS k FROM idempotency_keys WHERE merchant_code = 'sweep' ORDER BY 1`,
    )) as Array<{ k: string }>;
    expect(left.map((r) => r.k)).toEqual(['old-in-progress', 'young']);
  });
});
