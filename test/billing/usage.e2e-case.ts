import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { TestStack } from '../support/stack';
import { billingMerchant, BillingClient, billingQuery, expectError } from './billing-fixtures';

const MINUTE = 60_000;

/** Metered usage ingestion: single and batch, replays, date rules, scoping. */
describe('billing usage', () => {
  let stack: TestStack;
  let m: BillingClient;
  let subscription: Record<string, any>;

  const usage = (body: Record<string, unknown>, key: string | null = null, client = m) =>
    client.post('/v1/subscription/usage', { subscriptionId: subscription.id, meterCode: 'api_calls', ...body }, key);
  const batch = (events: unknown[], client = m) => client.post('/v1/subscription/usage/batch', { events }, null);
  const afterStart = (ms: number) => new Date(Date.parse(subscription.createdAt) + ms).toISOString();
  const storedEvents = async (subscriptionId = subscription.id) =>
    billingQuery(stack, 'SELECT * FROM usage_events WHERE subscription_id = $1', [subscriptionId]);

  async function meteredSubscription(client: BillingClient): Promise<Record<string, any>> {
    for (const code of ['api_calls', 'seats']) {
      const r = await client.post('/v1/subscription/meter', {
        code,
        name: code,
        aggregation: code === 'seats' ? 'max' : 'sum',
        pricing: { scheme: 'per_unit', unitAmount: 5 },
      });
      expect(r.status).toBe(201);
    }
    const plan = await client.plan({ meterCodes: ['api_calls', 'seats'] });
    return client.subscription({ planId: plan.id });
  }

  beforeAll(async () => {
    [stack, m] = await TestStack.startWith(billingMerchant, { services: ['payments', 'billing', 'payment-links'] });
    subscription = await meteredSubscription(m);
  });
  afterAll(() => stack.stop());

  describe('single events', () => {
    it('records an event (201) and answers a replay of (meterCode, key) with the same event (200, duplicate)', async () => {
      const key = `usage-${randomUUID()}`;
      const occurredAt = afterStart(1000);
      const first = await usage({ quantity: 7, occurredAt }, key);
      expect(first.status).toBe(201);
      expect(first.body).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        subscriptionId: subscription.id,
        meterCode: 'api_calls',
        quantity: 7,
        occurredAt,
        duplicate: false,
      });
      const replay = await usage({ quantity: 7, occurredAt }, key);
      expect(replay.status).toBe(200);
      expect(replay.body).toEqual({ ...first.body, duplicate: true });
      // A replay without occurredAt is the same report (the first one's time stands).
      expect((await usage({ quantity: 7 }, key)).body).toEqual({ ...first.body, duplicate: true });
      const rows = (await storedEvents()).filter((r) => r.idempotency_key === key);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ id: first.body.id, quantity: '7', idempotency_key: key });
    });

    it('concurrent singles (grouped into shared transactions) each get their own answer', async () => {
      // 60 at once: distinct keys, one key sent 10 times, one bad meter, one key reused with another quantity.
      const key = `burst-${randomUUID()}`;
      const shared = `burst-shared-${randomUUID()}`;
      const reused = `burst-reused-${randomUUID()}`;
      const occurredAt = afterStart(3000);
      const sends = [
        ...Array.from({ length: 40 }, (_, i) => usage({ quantity: 1, occurredAt }, `${key}-${i}`)),
        ...Array.from({ length: 10 }, () => usage({ quantity: 2, occurredAt }, shared)),
        usage({ meterCode: 'no_such_meter', quantity: 1, occurredAt }, `${key}-bad`),
        usage({ quantity: 3, occurredAt }, reused),
      ];
      const answers = await Promise.all(sends);
      const later = await usage({ quantity: 4, occurredAt }, reused);
      expect(answers.slice(0, 40).map((a) => a.status)).toEqual(Array(40).fill(201));
      const sharedStatuses = answers.slice(40, 50).map((a) => a.status);
      expect(sharedStatuses.filter((st) => st === 201)).toHaveLength(1);
      expect(sharedStatuses.filter((st) => st === 200)).toHaveLength(9);
      expect(new Set(answers.slice(40, 50).map((a) => a.body.id)).size).toBe(1);
      expectError(answers[50], 404, 'NOT_FOUND', 'meterCode');
      expect(answers[51].status).toBe(201);
      expectError(later, 422, 'IDEMPOTENCY_KEY_REUSED', 'Idempotency-Key');
      const rows = (await storedEvents()).filter((r) => String(r.idempotency_key).startsWith('burst-'));
      expect(rows).toHaveLength(42);
    });

    it('keys are per meter, any printable string, and optional', async () => {
      const key = 'order 42 / line #1';
      const calls = await usage({ quantity: 1 }, key);
      const seats = await usage({ quantity: 1, meterCode: 'seats' }, key);
      expect([calls.status, seats.status]).toEqual([201, 201]);
      expect(seats.body.id).not.toBe(calls.body.id);
      const a = await usage({ quantity: 2 });
      const b = await usage({ quantity: 2 });
      expect([a.status, b.status]).toEqual([201, 201]);
      expect(a.body.id).not.toBe(b.body.id);
      expectError(await usage({ quantity: 1 }, 'k'.repeat(256)), 400, 'VALIDATION_FAILED', 'Idempotency-Key');
    });

    it('the same key with another quantity, subscription or time is 422 IDEMPOTENCY_KEY_REUSED', async () => {
      const key = randomUUID();
      const occurredAt = afterStart(2000);
      expect((await usage({ quantity: 3, occurredAt }, key)).status).toBe(201);
      expectError(await usage({ quantity: 4, occurredAt }, key), 422, 'IDEMPOTENCY_KEY_REUSED', 'Idempotency-Key');
      const other = afterStart(3000);
      expectError(await usage({ quantity: 3, occurredAt: other }, key), 422, 'IDEMPOTENCY_KEY_REUSED');
    });

    it('defaults occurredAt to the receipt time', async () => {
      const before = Date.now();
      const r = await usage({ quantity: 1 });
      expect(r.status).toBe(201);
      const at = Date.parse(r.body.occurredAt);
      expect(at).toBeGreaterThanOrEqual(before - 1000);
      expect(at).toBeLessThanOrEqual(Date.now() + 1000);
    });

    it('refuses malformed input with the 400 envelope naming the field', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ quantity: -1 }, 'quantity'],
        [{ quantity: 1.5 }, 'quantity'],
        [{ quantity: '3' }, 'quantity'],
        [{ quantity: 2 ** 60 }, 'quantity'],
        [{}, 'quantity'],
        [{ quantity: 1, subscriptionId: undefined }, 'subscriptionId'],
        [{ quantity: 1, meterCode: 42 }, 'meterCode'],
        [{ quantity: 1, occurredAt: '2026-01-01' }, 'occurredAt'],
        [{ quantity: 1, occurredAt: '2026-02-30T00:00:00Z' }, 'occurredAt'],
        [{ quantity: 1, occurredAt: 1700000000 }, 'occurredAt'],
      ];
      for (const [body, param] of cases) expectError(await usage(body), 400, 'VALIDATION_FAILED', param);
    });

    it('answers 404 for an unknown subscription (uuid or not) or meter code', async () => {
      expectError(await usage({ quantity: 1, subscriptionId: randomUUID() }), 404, 'NOT_FOUND', 'subscriptionId');
      expectError(await usage({ quantity: 1, subscriptionId: 'sub_123' }), 404, 'NOT_FOUND', 'subscriptionId');
      expectError(await usage({ quantity: 1, meterCode: 'nope' }), 404, 'NOT_FOUND', 'meterCode');
    });

    it('date rules: not before the subscription start, at most 5 minutes ahead (400)', async () => {
      const start = Date.parse(subscription.createdAt);
      const before = new Date(start - 1000).toISOString();
      expectError(await usage({ quantity: 1, occurredAt: before }), 400, 'VALIDATION_FAILED', 'occurredAt');
      const ahead = new Date(Date.now() + 6 * MINUTE).toISOString();
      expectError(await usage({ quantity: 1, occurredAt: ahead }), 400, 'VALIDATION_FAILED', 'occurredAt');
      const slightlyAhead = new Date(Date.now() + 4 * MINUTE).toISOString();
      expect((await usage({ quantity: 1, occurredAt: slightlyAhead })).status).toBe(201);
      expect((await usage({ quantity: 1, occurredAt: new Date(start).toISOString() })).status).toBe(201);
    });
  });

  describe('batches', () => {
    it('answers each event as a single request would, in one 200', async () => {
      const replayKey = randomUUID();
      const first = await usage({ quantity: 9 }, replayKey);
      const inBatchKey = randomUUID();
      const r = await batch([
        { subscriptionId: subscription.id, meterCode: 'api_calls', quantity: 1, idempotencyKey: randomUUID() },
        { subscriptionId: subscription.id, meterCode: 'api_calls', quantity: 9, idempotencyKey: replayKey },
        { subscriptionId: subscription.id, meterCode: 'api_calls', quantity: -1 },
        { subscriptionId: subscription.id, meterCode: 'nope', quantity: 1 },
        { subscriptionId: randomUUID(), meterCode: 'api_calls', quantity: 1 },
        {
          subscriptionId: subscription.id,
          meterCode: 'seats',
          quantity: 1,
          occurredAt: new Date(Date.now() + 10 * MINUTE).toISOString(),
        },
        { subscriptionId: subscription.id, meterCode: 'seats', quantity: 4, idempotencyKey: inBatchKey },
        { subscriptionId: subscription.id, meterCode: 'seats', quantity: 4, idempotencyKey: inBatchKey },
        { subscriptionId: subscription.id, meterCode: 'seats', quantity: 5, idempotencyKey: inBatchKey },
        'not an event',
        { subscriptionId: subscription.id, meterCode: 'seats', quantity: 2 },
      ]);
      expect(r.status).toBe(200);
      const results = r.body.results;
      expect(results.map((x: any) => [x.index, x.status])).toEqual([
        [0, 201],
        [1, 200],
        [2, 400],
        [3, 404],
        [4, 404],
        [5, 400],
        [6, 201],
        [7, 200],
        [8, 422],
        [9, 400],
        [10, 201],
      ]);
      expect(results[0].event).toMatchObject({ subscriptionId: subscription.id, quantity: 1, duplicate: false });
      expect(results[1].event).toEqual({ ...first.body, duplicate: true });
      expect(results[2].error).toEqual({
        status: 400,
        code: 'VALIDATION_FAILED',
        message: expect.any(String),
        param: 'quantity',
      });
      expect(results[3].error).toMatchObject({ code: 'NOT_FOUND', param: 'meterCode' });
      expect(results[4].error).toMatchObject({ code: 'NOT_FOUND', param: 'subscriptionId' });
      expect(results[5].error).toMatchObject({ code: 'VALIDATION_FAILED', param: 'occurredAt' });
      expect(results[7].event).toEqual({ ...results[6].event, duplicate: true });
      expect(results[8].error).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', param: 'idempotencyKey' });
      expect(results[9].error).toMatchObject({ code: 'VALIDATION_FAILED' });
      for (const x of results) expect(x.event === undefined).toBe(x.error !== undefined);
      const ids = (await storedEvents()).map((e) => e.id);
      for (const i of [0, 6, 10]) expect(ids).toContain(results[i].event.id);
      expect(ids.filter((id) => id === results[6].event.id)).toHaveLength(1);
    });

    it('takes 1,000 events and answers a replay of the whole batch with the same events', async () => {
      const events = Array.from({ length: 1000 }, (_, i) => ({
        subscriptionId: subscription.id,
        meterCode: i % 2 ? 'api_calls' : 'seats',
        quantity: i,
        idempotencyKey: `bulk-${i}-${subscription.id}`,
      }));
      const first = await batch(events);
      expect(first.status).toBe(200);
      expect(first.body.results.every((x: any, i: number) => x.index === i && x.status === 201)).toBe(true);
      const again = await batch(events);
      expect(again.body.results.map((x: any) => x.status)).toEqual(events.map(() => 200));
      expect(again.body.results.map((x: any) => x.event.id)).toEqual(first.body.results.map((x: any) => x.event.id));
      const stored = await billingQuery(
        stack,
        `SELECT count(*)::int AS n FROM usage_events WHERE idempotency_key LIKE 'bulk-%'`,
      );
      expect(stored[0].n).toBe(1000);
    });

    it('refuses a batch that is empty, too large or not a list (400)', async () => {
      const event = { subscriptionId: subscription.id, meterCode: 'api_calls', quantity: 1 };
      expectError(await batch([]), 400, 'VALIDATION_FAILED', 'events');
      expectError(await batch(Array.from({ length: 1001 }, () => event)), 400, 'VALIDATION_FAILED', 'events');
      expectError(
        await m.post('/v1/subscription/usage/batch', { events: event }, null),
        400,
        'VALIDATION_FAILED',
        'events',
      );
      expectError(await m.post('/v1/subscription/usage/batch', {}, null), 400, 'VALIDATION_FAILED', 'events');
    });
  });

  it('answers arbitrary input with a 4xx envelope or a 2xx, never a 5xx', async () => {
    const field = fc.oneof(
      fc.jsonValue({ maxDepth: 1 }),
      fc.constantFrom(subscription.id, subscription.id.toUpperCase(), 'api_calls', 'seats', '9999-12-31T23:59:59Z'),
      fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
      fc.oneof(fc.integer({ min: -5, max: 2 ** 53 + 2 }), fc.double()),
    );
    const event = fc.oneof(
      fc.jsonValue({ maxDepth: 2 }),
      fc.record(
        { subscriptionId: field, meterCode: field, quantity: field, occurredAt: field, idempotencyKey: field },
        { requiredKeys: [] },
      ),
    );
    const request = fc.oneof(
      fc.tuple(fc.constant('/v1/subscription/usage'), event),
      fc.tuple(fc.constant('/v1/subscription/usage/batch'), fc.jsonValue({ maxDepth: 2 })),
      fc.tuple(
        fc.constant('/v1/subscription/usage/batch'),
        fc.record({
          events: fc.array(event, { maxLength: 30 }),
          merchantCode: fc.constantFrom(undefined, m.merchantCode),
        }),
      ),
    );
    await fc.assert(
      fc.asyncProperty(request, fc.option(fc.string({ maxLength: 20 })), async ([path, body], key) => {
        const r = await m.post(path, body, key === null || !/^[\x20-\x7E]+$/.test(key) ? null : key);
        expect(r.status).toBeLessThan(500);
        if (r.status >= 400) expect(r.body.error).toMatchObject({ status: r.status, code: expect.any(String) });
        for (const x of r.body?.results ?? []) expect(x.status).toBeLessThan(500);
      }),
      { numRuns: 150, seed: 10 },
    );
    for (const app of ['gateway', 'billing']) {
      expect(stack.log(app).text()).not.toMatch(/Unexpected error|INTERNAL_ERROR/);
    }
  });

  describe('scoping and periods', () => {
    it('another merchant, or the other environment of the same merchant, gets 404', async () => {
      const other = await billingMerchant(stack);
      expectError(await usage({ quantity: 1 }, null, other), 404, 'NOT_FOUND', 'subscriptionId');
      const production = await billingMerchant(stack, 'production', m.merchantCode);
      expectError(await usage({ quantity: 1 }, null, production), 404, 'NOT_FOUND');
      const r = await batch([{ subscriptionId: subscription.id, meterCode: 'api_calls', quantity: 1 }], other);
      expect(r.body.results[0]).toMatchObject({ status: 404, error: { code: 'NOT_FOUND' } });
    });

    it('a replay from another merchant with the same meter code and key is not a replay', async () => {
      const other = await billingMerchant(stack);
      const theirs = await meteredSubscription(other);
      const key = randomUUID();
      const mine = await usage({ quantity: 1 }, key);
      const r = await other.post(
        '/v1/subscription/usage',
        { subscriptionId: theirs.id, meterCode: 'api_calls', quantity: 1 },
        key,
      );
      expect([mine.status, r.status]).toEqual([201, 201]);
      expect(r.body.id).not.toBe(mine.body.id);
    });

    it('merchantCode is optional for a single-merchant key and required for a multi-merchant one', async () => {
      expect((await usage({ quantity: 1, merchantCode: m.merchantCode })).status).toBe(201);
      const second = await stack.merchant();
      const { key } = await stack.key([m.merchantCode, second]);
      const body = { subscriptionId: subscription.id, meterCode: 'api_calls', quantity: 1 };
      const without = await stack.http('POST', '/v1/subscription/usage', { key, body });
      expectError(without, 400, 'MERCHANT_CODE_REQUIRED', 'merchantCode');
      const withCode = await stack.http('POST', '/v1/subscription/usage', {
        key,
        body: { ...body, merchantCode: m.merchantCode },
      });
      expect(withCode.status).toBe(201);
      const batchWithout = await stack.http('POST', '/v1/subscription/usage/batch', { key, body: { events: [body] } });
      expectError(batchWithout, 400, 'MERCHANT_CODE_REQUIRED', 'merchantCode');
    });

    it('reads "5 minutes ahead" on the merchant’s sandbox clock', async () => {
      const client = await billingMerchant(stack);
      const theirs = await meteredSubscription(client);
      const advanced = await client.post('/v1/sandbox/clock/advance', { by: 'P1D' }, null);
      expect(advanced.status).toBe(200);
      const tomorrow = new Date(Date.now() + 23 * 60 * MINUTE).toISOString();
      const r = await client.post(
        '/v1/subscription/usage',
        { subscriptionId: theirs.id, meterCode: 'api_calls', quantity: 1, occurredAt: tomorrow },
        null,
      );
      expect(r.status).toBe(201);
      // The other merchants' clocks did not move.
      expectError(await usage({ quantity: 1, occurredAt: tomorrow }), 400, 'VALIDATION_FAILED', 'occurredAt');
    });

    it('a cancelled subscription takes no more usage (409); a deferred one none before its start (400)', async () => {
      const client = await billingMerchant(stack);
      const theirs = await meteredSubscription(client);
      const cancel = await client.post(`/v1/subscription/${theirs.id}/cancel`, { merchantCode: client.merchantCode });
      expect(cancel.status).toBe(200);
      const send = (subscriptionId: string, body: Record<string, unknown> = {}) =>
        client.post('/v1/subscription/usage', { subscriptionId, meterCode: 'api_calls', quantity: 1, ...body }, null);
      expectError(await send(theirs.id), 409, 'INVALID_STATE');
      const startAt = new Date(Date.now() + 3_600_000).toISOString();
      const plan = await client.plan({ meterCodes: ['api_calls'] });
      const pending = await client.subscription({ planId: plan.id, startAt });
      expect(pending.status).toBe('pending');
      expectError(await send(pending.id), 400, 'VALIDATION_FAILED', 'occurredAt');
    });

    it('usage dated in a period already invoiced is 422 USAGE_PERIOD_CLOSED; a replay still answers', async () => {
      const client = await billingMerchant(stack);
      const theirs = await meteredSubscription(client);
      const key = randomUUID();
      const early = new Date(Date.parse(theirs.createdAt) + 1).toISOString();
      const send = (body: Record<string, unknown>, k: string | null = null) =>
        client.post('/v1/subscription/usage', { subscriptionId: theirs.id, meterCode: 'api_calls', ...body }, k);
      expect((await send({ quantity: 2, occurredAt: early }, key)).status).toBe(201);
      // What the renewal that bills the period's usage records (UsageRepository.markBilledThrough). No renewal
      // runs on this branch yet, so the test records it as the renewal will.
      const periodStart = new Date(Date.now() + 1000);
      await billingQuery(stack, 'INSERT INTO usage_billed_through VALUES ($1, $2)', [theirs.id, periodStart]);
      expectError(await send({ quantity: 1, occurredAt: early }), 422, 'USAGE_PERIOD_CLOSED', 'occurredAt');
      expect((await send({ quantity: 2, occurredAt: early }, key)).status).toBe(200);
      const after = new Date(periodStart.getTime() + 1000).toISOString();
      expect((await send({ quantity: 1, occurredAt: after })).status).toBe(201);
    });
  });
});
