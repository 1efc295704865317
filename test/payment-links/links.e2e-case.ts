import { ExpirySweepLoop } from '@app/platform';
import { PaymentLinkEntity } from '../../apps/payment-links/src/link/payment-link.entity';
import { expectError } from '../payments/payments-fixtures';
import { TestStack } from '../support/stack';
import { linkEvents, LinksClient, linksMerchant, linksStack, linksQuery, newKey } from './link-fixtures';
import { usd } from '../support/amounts';

const HOUR = 3_600_000;

/** Payment links through the gateway: creation rules and defaults, reading, listing, cancelling. */
describe('payment links', () => {
  let stack: TestStack;
  let m: LinksClient;

  beforeAll(async () => ([stack, m] = await linksStack()));
  afterAll(() => stack.stop());

  it('creates a one-time fixed link with the defaults: 201, single use, 24 hours, checkout url', async () => {
    const before = Date.now();
    const r = await m.create({ amount: usd(2500), title: 'Blue mug', description: 'One mug', reference: 'INV-7' });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      type: 'one-time',
      status: 'active',
      amountMode: 'fixed',
      amount: usd(2500),
      reusable: false,
      maxUses: 1,
      usesCount: 0,
      saveCardEnabled: false,
      environment: 'sandbox',
      merchantCode: m.m.merchantCode,
      title: 'Blue mug',
      reference: 'INV-7',
      metadata: {},
    });
    expect(r.body.url).toBe(`http://localhost:3000/checkout/${r.body.id}`);
    expect(r.body.usedAt).toBeUndefined();
    const expiry = Date.parse(r.body.expiresAt) - Date.parse(r.body.createdAt);
    expect(expiry).toBe(24 * HOUR);
    expect(Date.parse(r.body.createdAt)).toBeGreaterThanOrEqual(before - 1000);
    const events = await linkEvents(stack, r.body.id);
    expect(events.map((e) => e.type)).toEqual(['payment_link.created']);
    expect(events[0].data).toEqual(r.body);
  });

  it('a reusable link has no expiry unless given, and takes maxUses', async () => {
    const open = await m.create({ amount: usd(100), reusable: true });
    expect(open.status).toBe(201);
    expect(open.body.expiresAt).toBeUndefined();
    expect(open.body.maxUses).toBeUndefined();
    const capped = await m.create({ amount: usd(100), reusable: true, maxUses: 5 });
    expect(capped.body).toMatchObject({ reusable: true, maxUses: 5 });
    const until = new Date(Date.now() + 3 * HOUR).toISOString();
    expect((await m.create({ amount: usd(100), expiresAt: until })).body.expiresAt).toBe(until);
  });

  it('a customer_entered link takes currency and exponent, and needs its bounds', async () => {
    const r = await m.create({ amountMode: 'customer_entered', amount: usd(), amountMin: 500, amountMax: 50000 });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ amountMode: 'customer_entered', amount: usd(), amountMin: 500, amountMax: 50000 });
    expect(r.body.amount.value).toBeUndefined();
    expectError(
      await m.create({ amountMode: 'customer_entered', amount: usd(), amountMax: 100 }),
      400,
      'VALIDATION_FAILED',
      'amountMin',
    );
    expectError(
      await m.create({ amountMode: 'customer_entered', amount: usd(), amountMin: 100 }),
      400,
      'VALIDATION_FAILED',
      'amountMax',
    );
    expectError(
      await m.create({ amountMode: 'customer_entered', amount: usd(), amountMin: 900, amountMax: 100 }),
      400,
      'VALIDATION_FAILED',
      'amountMin',
    );
    expectError(
      await m.create({ amountMode: 'customer_entered', amount: usd(100), amountMin: 1, amountMax: 100 }),
      400,
      'VALIDATION_FAILED',
      'amount.value',
    );
  });

  it('refuses what the rules forbid with a clear 4xx', async () => {
    expectError(await m.create({}), 400, 'VALIDATION_FAILED', 'amount');
    expectError(await m.create({ amount: usd() }), 400, 'VALIDATION_FAILED', 'amount.value');
    expectError(
      await m.create({ amount: { currency: 'USD', value: 100, exponent: 0 } }),
      422,
      'INVALID_EXPONENT',
      'amount.exponent',
    );
    expectError(await m.create({ amount: { currency: 'JPY', value: 100, exponent: 2 } }), 422, 'INVALID_EXPONENT');
    expectError(await m.create({ amount: { currency: 'XYZ', value: 100, exponent: 2 } }), 400, 'VALIDATION_FAILED');
    expectError(await m.create({ amount: usd(0) }), 400, 'VALIDATION_FAILED');
    expectError(await m.create({ amount: usd(100), maxUses: 3 }), 400, 'VALIDATION_FAILED', 'maxUses');
    expectError(
      await m.create({ amount: usd(100), expiresAt: new Date(Date.now() - 1000).toISOString() }),
      400,
      'VALIDATION_FAILED',
      'expiresAt',
    );
    expectError(await m.create({ amount: usd(100), type: 'weekly' }), 400, 'VALIDATION_FAILED');
    expectError(await m.create({ amount: usd(100), returnUrl: 'javascript:alert(1)' }), 400, 'VALIDATION_FAILED');
    expectError(await m.create({ type: 'subscription' }), 400, 'VALIDATION_FAILED', 'subscriptionPlanId');
    expectError(
      await m.create({ amount: usd(100), subscriptionPlanId: 3 }),
      400,
      'VALIDATION_FAILED',
      'subscriptionPlanId',
    );
    expectError(await m.create({ amount: usd(100), title: 'x'.repeat(256) }), 400, 'VALIDATION_FAILED', 'title');
    expectError(await m.create({ amount: usd(100), metadata: { k: 1 } }), 400, 'VALIDATION_FAILED', 'metadata');
    // Empty optional free text means "none".
    const blank = await m.create({ amount: usd(100), description: '', customerEmail: '', returnUrl: '' });
    expect(blank.status).toBe(201);
    expect(blank.body.description).toBeUndefined();
    expect(blank.body.customerEmail).toBeUndefined();
  });

  it('honours Idempotency-Key on create: a replay answers the same link, another body is 422', async () => {
    const key = newKey();
    const body = { amount: usd(700), title: 'Replayed' };
    const [a, b] = await Promise.all([m.create(body, key), m.create(body, key)]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(b.body).toEqual(a.body);
    const c = await m.create(body, key);
    expect(c.body.id).toBe(a.body.id);
    const rows = await linksQuery(stack, `SELECT id FROM payment_links WHERE title = 'Replayed'`);
    expect(rows).toHaveLength(1);
    expectError(await m.create({ ...body, title: 'Other' }, key), 422, 'IDEMPOTENCY_KEY_REUSED');
  });

  it('a retry with the same metadata in another key order replays the link; another value is 422', async () => {
    const key = newKey();
    const body = { amount: usd(800), title: 'Meta', metadata: { cart: 'c-1', channel: 'web', tier: 'gold' } };
    const first = await m.create(body, key);
    const again = await m.create(
      { metadata: { tier: 'gold', channel: 'web', cart: 'c-1' }, title: 'Meta', amount: usd(800) },
      key,
    );
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.body).toEqual(first.body);
    expect(await linksQuery(stack, `SELECT id FROM payment_links WHERE title = 'Meta'`)).toHaveLength(1);
    expectError(
      await m.create({ ...body, metadata: { ...body.metadata, tier: 'x' } }, key),
      422,
      'IDEMPOTENCY_KEY_REUSED',
    );
  });

  it('reads a link of its own merchant and environment only: 404 otherwise', async () => {
    const link = await m.link();
    expect((await m.get(link.id)).body).toEqual(link);
    const other = await linksMerchant(stack);
    expectError(await other.get(link.id), 404, 'NOT_FOUND');
    const production = await stack.key([m.m.merchantCode], 'private', 'production');
    expectError(await stack.http('GET', `/v1/payment-link/${link.id}`, { key: production.key }), 404, 'NOT_FOUND');
    expectError(await m.get('not-a-uuid'), 404, 'NOT_FOUND');
    expectError(await m.get(link.id.replace(/.$/, (c: string) => (c === '0' ? '1' : '0'))), 404, 'NOT_FOUND');
    expectError(await stack.http('GET', `/v1/payment-link/${link.id}`), 401, 'AUTH_MISSING');
  });

  it('lists newest first with limit and startingAfter', async () => {
    const own = await linksMerchant(stack);
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await own.link({ title: `L${i}` }));
    const page1 = await stack.http('GET', '/v1/payment-link?limit=2', { key: own.key });
    expect(page1.status).toBe(200);
    expect(page1.body.map((l: any) => l.id)).toEqual([made[2].id, made[1].id]);
    const page2 = await stack.http('GET', `/v1/payment-link?limit=2&startingAfter=${made[1].id}`, { key: own.key });
    expect(page2.body.map((l: any) => l.id)).toEqual([made[0].id]);
    expectError(await stack.http('GET', '/v1/payment-link?limit=101', { key: own.key }), 400, 'VALIDATION_FAILED');
    const all = await stack.http('GET', '/v1/payment-link', { key: own.key });
    expect(all.body).toHaveLength(3);
  });

  it('cancels an active link (200, once), answers 200 again for a cancelled one, and stops the checkout', async () => {
    const link = await m.link();
    const first = await m.cancel(link.id);
    expect(first.status).toBe(200);
    expect(first.body.status).toBe('cancelled');
    const again = await m.cancel(link.id);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect((await linkEvents(stack, link.id)).map((e) => e.type)).toEqual([
      'payment_link.created',
      'payment_link.cancelled',
    ]);
    const page = await stack.http<string>('GET', `/checkout/${link.id}`);
    expect(page.status).toBe(410);
    expect(page.body).toContain('no longer available');
    expect(page.body).toContain('cancelled');
    expectError(await m.cancel('00000000-0000-7000-8000-000000000000'), 404, 'NOT_FOUND');
    // No body at all is fine too (merchantCode is optional for a single-merchant key).
    const bare = await m.link();
    expect((await stack.http('POST', `/v1/payment-link/${bare.id}/cancel`, { key: m.key })).status).toBe(200);
  });

  it('expires on read once expiresAt passes, the event stamped at the expiry', async () => {
    const expiresAt = new Date(Date.now() + 1200).toISOString();
    const link = await m.link({ expiresAt });
    await new Promise((r) => setTimeout(r, 1400));
    const read = await m.get(link.id);
    expect(read.body.status).toBe('expired');
    const events = await linkEvents(stack, link.id);
    expect(events.map((e) => e.type)).toEqual(['payment_link.created', 'payment_link.expired']);
    expect(events[1].createdAt).toBe(expiresAt);
    expectError(await m.cancel(link.id), 409, 'INVALID_STATE');
    expect((await stack.http('GET', `/checkout/${link.id}`)).status).toBe(410);
  });

  it('the sandbox clock expires links: an advance past expiresAt sweeps them before it answers', async () => {
    const own = await linksMerchant(stack);
    const soon = await own.link();
    const later = await own.link({ expiresAt: new Date(Date.now() + 3 * 24 * HOUR).toISOString() });
    const reusable = await own.link({ reusable: true });
    const r = await stack.http('POST', '/v1/sandbox/clock/advance', { key: own.key, body: { by: 'P1DT1H' } });
    expect(r.status).toBe(200);
    const rows = await linksQuery<{ id: string; status: string }>(
      stack,
      'SELECT id, status FROM payment_links WHERE id = ANY($1)',
      [[soon.id, later.id, reusable.id]],
    );
    const status = Object.fromEntries(rows.map((x) => [x.id, x.status]));
    expect(status).toEqual({ [soon.id]: 'expired', [later.id]: 'active', [reusable.id]: 'active' });
    const events = await linkEvents(stack, soon.id);
    expect(events[1]).toMatchObject({ type: 'payment_link.expired', createdAt: soon.expiresAt });
    // The merchant's clock now reads a day ahead: a new single-use link expires a day after that.
    const fresh = await own.link();
    expect(Date.parse(fresh.createdAt)).toBeGreaterThan(Date.now() + 24 * HOUR);
    // Other merchants' links are untouched.
    const mine = await m.link();
    expect((await m.get(mine.id)).body.status).toBe('active');
  });

  it('the periodic sweeper expires links nobody reads (FOR UPDATE SKIP LOCKED claims)', async () => {
    const link = await m.link({ expiresAt: new Date(Date.now() + 800).toISOString() });
    await new Promise((r) => setTimeout(r, 1000));
    const app = stack.services.get('payment-links')![0];
    const sweep = app.get<ExpirySweepLoop<PaymentLinkEntity>>(ExpirySweepLoop.tokenOf('link_expiry'));
    const swept = await Promise.all([sweep.runOnce(), sweep.runOnce()]);
    expect(swept[0] + swept[1]).toBeGreaterThanOrEqual(1);
    const [row] = await linksQuery<{ status: string }>(stack, 'SELECT status FROM payment_links WHERE id = $1', [
      link.id,
    ]);
    expect(row.status).toBe('expired');
    expect((await linkEvents(stack, link.id)).filter((e) => e.type === 'payment_link.expired')).toHaveLength(1);
  });
});
