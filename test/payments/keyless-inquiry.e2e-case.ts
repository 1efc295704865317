import { TestStack } from '../support/stack';
import { expectError, PaymentsClient, sandboxMerchant, uid, usd } from './payments-fixtures';

const PER_MINUTE = 5;

/**
 * The provider's PrestaShop plugin refunds by looking the stored paymentCode up without a key
 * (GET /v1/payment/inquiry/{paymentCode} with X-Environment), then refunding the id it got with the key.
 * Each test calls from an address of its own: the keyless limit counts per client address.
 */
describe('keyless inquiry (the provider plugins’ refund lookup)', () => {
  let stack: TestStack;
  let m: PaymentsClient;

  beforeAll(async () => {
    [stack, m] = await TestStack.startWith(sandboxMerchant, {
      env: { KEYLESS_INQUIRY_PER_MINUTE: String(PER_MINUTE) },
    });
  });
  afterAll(() => stack.stop());

  const keyless = (reference: string, from: string, environment = 'sandbox') =>
    stack.http('GET', `/v1/payment/inquiry/${encodeURIComponent(reference)}`, {
      headers: { 'x-environment': environment },
      from,
    });

  it('the plugin’s refund flow: keyless inquiry by paymentCode, a partial refund with the key, then the rest', async () => {
    const paid = (await m.purchase()).body;
    const found = await keyless(paid.paymentCode, '127.0.36.1');
    expect(found.status).toBe(200);
    expect(found.body).toEqual({
      id: paid.id,
      paymentCode: paid.paymentCode,
      orderCode: paid.orderCode,
      status: 'captured',
    });

    const partial = await m.refund(found.body.id, 400);
    expect(partial.status).toBe(200);
    expect(partial.body).toMatchObject({ id: paid.id, amount: usd(400), status: 'refunded' });
    expect((await keyless(paid.paymentCode, '127.0.36.1')).body.status).toBe('captured');
    const rest = await m.refund(found.body.id, 600);
    expect(rest.status).toBe(200);

    const after = await keyless(paid.paymentCode, '127.0.36.1');
    expect(after.body).toEqual({ ...found.body, status: 'refunded' });
    expect((await m.get(paid.id)).body).toMatchObject({ status: 'refunded', amountRefunded: usd(1000) });
  });

  it('answers exactly id, paymentCode, orderCode and status: nothing of the amount, card, customer or merchant', async () => {
    const paymentCode = `ps-${uid()}`;
    const p = (await m.purchase({ paymentCode, metadata: { cart: '42' } })).body;
    const r = await keyless(paymentCode, '127.0.36.2');
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['id', 'orderCode', 'paymentCode', 'status']);
    expect(r.body.id).toBe(p.id);
  });

  it('a key keeps answering the whole payment, X-Environment or not', async () => {
    const p = (await m.purchase()).body;
    const r = await stack.http('GET', `/v1/payment/inquiry/${p.paymentCode}`, {
      key: m.key,
      headers: { 'x-environment': 'sandbox' },
      from: '127.0.36.3',
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: p.id, merchantCode: m.merchantCode, amount: usd(1000) });
    // With a key, the header is not an invitation to go keyless: a bad key is still 401.
    const bad = await stack.http('GET', `/v1/payment/inquiry/${p.paymentCode}`, {
      key: 'prv_sandbox_not-a-key',
      headers: { 'x-environment': 'sandbox' },
      from: '127.0.36.3',
    });
    expectError(bad, 401, 'AUTH_INVALID');
  });

  it('unknown, another environment or an id: 404 like an unknown payment; a taken code cannot be shadowed', async () => {
    const from = '127.0.36.4';
    expectError(await keyless(`never-${uid()}`, from), 404, 'NOT_FOUND');

    // A second merchant cannot take the first one's paymentCode: the keyless answer stays the first one's.
    const other = await sandboxMerchant(stack);
    const paymentCode = `shared-${uid()}`;
    const mine = (await m.purchase({ paymentCode })).body;
    expectError(await other.purchase({ paymentCode }), 409, 'DUPLICATE_PAYMENT_CODE', 'paymentCode');
    expect((await keyless(paymentCode, from)).body.id).toBe(mine.id);
    const keyed = await stack.http('GET', `/v1/payment/inquiry/${paymentCode}`, { key: m.key });
    expect(keyed.body.id).toBe(mine.id);

    const single = (await m.purchase()).body;
    expectError(await keyless(single.paymentCode, from, 'production'), 404, 'NOT_FOUND');
    expectError(await keyless(single.id, '127.0.36.5'), 404, 'NOT_FOUND');
  });

  it('an X-Environment other than sandbox or production is 400; without it, 401 as before', async () => {
    const p = (await m.purchase()).body;
    expectError(await keyless(p.paymentCode, '127.0.36.6', 'staging'), 400, 'VALIDATION_FAILED', 'X-Environment');
    const bare = await stack.http('GET', `/v1/payment/inquiry/${p.paymentCode}`, { from: '127.0.36.6' });
    expectError(bare, 401, 'AUTH_MISSING');
  });

  it('limits keyless inquiries per client address: 429 with Retry-After, other addresses unaffected', async () => {
    const p = (await m.purchase()).body;
    // Twice the limit and one: even if the one-minute window turns over mid-burst, one window overflows.
    const answers = [];
    for (let i = 0; i < 2 * PER_MINUTE + 1; i++) answers.push(await keyless(p.paymentCode, '127.0.36.7'));
    const refused = answers.find((r) => r.status === 429);
    expect(refused).toBeDefined();
    expectError(refused!, 429, 'RATE_LIMITED');
    const retryAfter = Number(refused!.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(answers.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(PER_MINUTE);
    expect((await keyless(p.paymentCode, '127.0.36.8')).status).toBe(200);
    // A key is not counted against the address.
    const keyed = await stack.http('GET', `/v1/payment/inquiry/${p.paymentCode}`, { key: m.key, from: '127.0.36.7' });
    expect(keyed.status).toBe(200);
  });

  it('KEYLESS_INQUIRY_PER_MINUTE=0: without a key it is 401 as on every merchant route', async () => {
    const p = (await m.purchase()).body;
    const off = await stack.startGateway({ KEYLESS_INQUIRY_PER_MINUTE: '0' });
    try {
      expectError(await keyless(p.paymentCode, '127.0.36.9'), 401, 'AUTH_MISSING');
      const keyed = await stack.http('GET', `/v1/payment/inquiry/${p.paymentCode}`, { key: m.key });
      expect(keyed.body.id).toBe(p.id);
    } finally {
      await stack.stopGateway(off);
    }
    expect((await keyless(p.paymentCode, '127.0.36.9')).status).toBe(200);
  });
});
