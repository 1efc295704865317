import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import type { CallerContext } from '@app/contracts';
import { ensureDatabase, inTransaction } from '@app/database';
import { DomainError } from '@app/errors';
import {
  canonicalJson,
  CreateIdempotencyKeys1763700000001,
  IdempotencyKeyLeases1768300000000,
  IdempotencyRepository,
  IdempotencyService,
  IdempotencySweepLoop,
  KeyTaken,
  LeasedRun,
} from '@app/idempotency';
import { runState } from '../support/run-state';

const fingerprintKey = randomBytes(32).toString('base64');

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
    // The table as every service's migrations make it: the library's own migrations.
    const q = ds.createQueryRunner();
    for (const M of [CreateIdempotencyKeys1763700000001, IdempotencyKeyLeases1768300000000]) await new M().up(q);
    await q.release();
    keys = new IdempotencyRepository(ds);
    service = new IdempotencyService(keys, ds, { fingerprintKey, requireKeyInProduction: true });
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
    const claim = await inTransaction(ds, (m) => service.claim(m, ctx(key), 'purchase', { a: 1 }));
    expect(claim).toEqual({ requestHash: expect.stringMatching(/^v3:/) });
    expect(await codeOf(inTransaction(ds, (m) => service.claim(m, ctx(key), 'purchase', { a: 1 })))).toBe(
      'IDEMPOTENCY_IN_PROGRESS',
    );
    expect(await codeOf(service.earlierAnswer(ctx(key), 'purchase', { a: 2 }))).toBe('IDEMPOTENCY_IN_PROGRESS');
    await inTransaction(ds, (m) => service.complete(m, ctx(key), { id: 'p1' }));
    const replay = await inTransaction(ds, (m) => service.claim(m, ctx(key), 'purchase', { a: 1 }));
    expect(replay).toEqual({ replay: { id: 'p1' } });
    expect((await row(key)).response_status).toBe(200);
  });

  it('a claim sent in one batch fails its transaction when the key has a row; the earlier answer decides', async () => {
    const key = randomUUID();
    const hold = (body: unknown) => inTransaction(ds, (m) => service.hold(m, ctx(key), 'purchase', body));
    expect(await hold({ a: 1 })).toMatch(/^v3:/);
    const taken = await hold({ a: 1 }).catch((e: unknown) => e);
    expect(taken).toBeInstanceOf(KeyTaken);
    expect(await codeOf(service.earlierAnswer(ctx(key), 'purchase', { a: 1 }, taken))).toBe('IDEMPOTENCY_IN_PROGRESS');
    // Released (the call failed, nothing recorded): the key is free again, and a KeyTaken meanwhile is a 409.
    await inTransaction(ds, (m) => service.release(m, ctx(key)));
    expect(await row(key)).toBeUndefined();
    expect(await codeOf(service.earlierAnswer(ctx(key), 'purchase', { a: 1 }, taken))).toBe('IDEMPOTENCY_IN_PROGRESS');
    expect(await service.earlierAnswer(ctx(key), 'purchase', { a: 1 }, new Error('other'))).toBeUndefined();
    await hold({ a: 1 });
    await inTransaction(ds, (m) => service.complete(m, ctx(key), { id: 'p2' }));
    expect(await service.earlierAnswer(ctx(key), 'purchase', { a: 1 }, taken)).toEqual({ id: 'p2' });
    expect(await codeOf(service.earlierAnswer(ctx(key), 'purchase', { a: 3 }, taken))).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('keys written with the plain fingerprints of earlier releases still replay a retry of the same request', async () => {
    const body = { metadata: { cart: 'c', channel: 'web', tier: 'gold' }, planId: 3 };
    const plain = createHash('sha256').update(canonicalJson(body)).digest('hex');
    for (const earlier of [plain, `v2:${plain}`]) {
      const key = randomUUID();
      await ds.query(`INSERT INTO idempotency_keys VALUES ('m1', 'sandbox', $1, 'purchase', $2, 200, $3, now())`, [
        key,
        earlier,
        JSON.stringify({ id: 'old' }),
      ]);
      const retry = { planId: 3, metadata: { tier: 'gold', channel: 'web', cart: 'c' } };
      expect(await inTransaction(ds, (m) => service.claim(m, ctx(key), 'purchase', retry))).toEqual({
        replay: { id: 'old' },
      });
      expect(await codeOf(service.earlierAnswer(ctx(key), 'purchase', { ...retry, planId: 4 }))).toBe(
        'IDEMPOTENCY_KEY_REUSED',
      );
    }
  });

  describe('leased keys (work that calls other services first)', () => {
    const lease = { ms: 60_000, keepResourceId: true, callKeyPrefix: 'svc' };
    let leased: IdempotencyService;
    beforeAll(() => {
      leased = new IdempotencyService(keys, ds, { fingerprintKey, lease });
    });
    const answering = (id: string) => async (run: LeasedRun) => {
      await ds.transaction((m) => run.answer(m, { id, resourceId: run.resourceId }));
      return { id, resourceId: run.resourceId };
    };

    it('replay the answer; 422 for another body or operation; 409 while leased', async () => {
      const key = randomUUID();
      const first = await leased.leased(ctx(key), 'create', { a: 1, b: 2 }, answering('first'));
      expect(await leased.leased(ctx(key), 'create', { b: 2, a: 1 }, answering('twice'))).toEqual(first);
      expect(await codeOf(leased.leased(ctx(key), 'create', { a: 2 }, answering('x')))).toBe('IDEMPOTENCY_KEY_REUSED');
      expect(await codeOf(leased.leased(ctx(key), 'cancel', { a: 1, b: 2 }, answering('x')))).toBe(
        'IDEMPOTENCY_KEY_REUSED',
      );
      const slow = randomUUID();
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const holder = leased.leased(ctx(slow), 'create', {}, async (run) => {
        await gate;
        return answering('slow')(run);
      });
      await new Promise((r) => setTimeout(r, 50));
      expect(await codeOf(leased.leased(ctx(slow), 'create', {}, answering('x')))).toBe('IDEMPOTENCY_IN_PROGRESS');
      release();
      expect((await holder).id).toBe('slow');
      expect((await row(slow)).reserved_until).toBeNull();
    });

    it('an error frees the key; the retry keeps the resource id, and its call keys while the body is the same', async () => {
      const key = randomUUID();
      const seen: string[][] = [];
      const failing = (run: LeasedRun) => {
        seen.push([run.resourceId, run.callKey('cit')]);
        return Promise.reject(new Error('declined'));
      };
      await expect(leased.leased(ctx(key), 'create', { a: 1 }, failing)).rejects.toThrow('declined');
      await expect(leased.leased(ctx(key), 'create', { a: 1 }, failing)).rejects.toThrow('declined');
      await expect(leased.leased(ctx(key), 'create', { a: 2 }, failing)).rejects.toThrow('declined');
      expect(seen[1]).toEqual(seen[0]);
      expect(seen[2][0]).toBe(seen[0][0]);
      expect(seen[2][1]).not.toBe(seen[0][1]);
      expect(seen[0][1]).toMatch(/^svc_[0-9a-f]{40}_cit$/);
      // Without a key, every request is new.
      const once = await leased.leased(ctx(), 'create', {}, async (run) => run.callKey('cit'));
      expect(once).toMatch(/^svc_[0-9a-f-]{36}_cit$/);
    });

    it("a crashed holder's lease lapses: the key is taken again, with its resource id", async () => {
      const key = randomUUID();
      const short = new IdempotencyService(keys, ds, { fingerprintKey, lease: { ...lease, ms: 1 } });
      const crashed = await short.leased(ctx(key), 'create', {}, async (run) => run.resourceId);
      await new Promise((r) => setTimeout(r, 20));
      expect((await short.leased(ctx(key), 'create', {}, answering('after'))).resourceId).toBe(crashed);
    });

    it('a key released without keeping its row loses it: the retry is a new resource', async () => {
      const dropping = new IdempotencyService(keys, ds, { fingerprintKey, lease: { ...lease, keepResourceId: false } });
      const key = randomUUID();
      const ids: string[] = [];
      const failing = (run: LeasedRun) => (ids.push(run.resourceId), Promise.reject(new Error('no')));
      await expect(dropping.leased(ctx(key), 'create', {}, failing)).rejects.toThrow('no');
      expect(await row(key)).toBeUndefined();
      await expect(dropping.leased(ctx(key), 'create', {}, failing)).rejects.toThrow('no');
      expect(ids[1]).not.toBe(ids[0]);
    });
  });

  it('checks the key: 400 for a malformed one, and for none where the service requires one', async () => {
    const claim = (c: CallerContext) => inTransaction(ds, (m) => service.claim(m, c, 'purchase', {}));
    expect(await codeOf(claim(ctx('x'.repeat(256))))).toBe('VALIDATION_FAILED');
    expect(await codeOf(claim(ctx(undefined, 'production')))).toBe('IDEMPOTENCY_KEY_REQUIRED');
    expect(await claim(ctx())).toEqual({});
    const optional = new IdempotencyService(keys, ds, { fingerprintKey });
    expect(await optional.transaction(ctx(undefined, 'production'), 'create', {}, 201, async () => 'done')).toBe(
      'done',
    );
  });

  it('one sweep deletes keys older than 24 hours in batches, never a key in progress', async () => {
    const insert = (key: string, age: string, status: number | null, lease?: string | null) =>
      ds.query(
        `INSERT INTO idempotency_keys VALUES ('sweep', 'sandbox', $1, 'purchase', 'h', $2, $3, now() - $4::interval,
           $5, now() + $6::interval)`,
        [key, status, status === null ? null : '{}', age, lease === undefined ? null : randomUUID(), lease ?? null],
      );
    await insert('old', '25 hours', 200);
    await insert('old-in-progress', '25 hours', null);
    await insert('young', '23 hours', 200);
    await insert('old-leased', '25 hours', null, '1 minute');
    await insert('old-lapsed', '25 hours', null, '-1 minute');
    await insert('old-released', '25 hours', null, null);
    const sweeper = new IdempotencySweepLoop(keys);
    expect(await sweeper.runOnce()).toBe(3);
    const left = (await ds.query(
      `SELECT idempotency_key AS k FROM idempotency_keys WHERE merchant_code = 'sweep' ORDER BY 1`,
    )) as Array<{ k: string }>;
    expect(left.map((r) => r.k)).toEqual(['old-in-progress', 'old-leased', 'young']);
    // A batch at a time, claimed with SKIP LOCKED: rows another sweeper holds are passed over, never waited for.
    for (let i = 0; i < 5; i++) await insert(`many-${i}`, '25 hours', 200);
    const other = ds.createQueryRunner();
    await other.startTransaction();
    try {
      await other.query(`SELECT 1 FROM idempotency_keys WHERE idempotency_key IN ('many-0', 'many-1') FOR UPDATE`);
      const waited = new Promise((r) => setTimeout(() => r('waited for the locked rows'), 3000));
      expect(await Promise.race([keys.deleteExpired(24, 2), waited])).toBe(2);
      expect(await keys.deleteExpired(24, 2)).toBe(1);
    } finally {
      await other.rollbackTransaction();
      await other.release();
    }
    expect(await keys.deleteExpired(24, 2)).toBe(2);
  });
});
