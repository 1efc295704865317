import { TestStack } from '../support/stack';
import { cardData, expectError, PaymentsClient, sandboxMerchant, uid, usd } from './payments-fixtures';

describe('payment inquiry and scoping', () => {
  let stack: TestStack;
  let m: PaymentsClient;
  let other: PaymentsClient;
  let production: PaymentsClient;

  beforeAll(async () => {
    [stack, m] = await TestStack.startWith(sandboxMerchant);
    other = await sandboxMerchant(stack);
    production = new PaymentsClient(
      stack,
      (await stack.key([m.merchantCode], 'private', 'production')).key,
      m.merchantCode,
    );
    await stack.productionSimulator(m.merchantCode);
  });
  afterAll(() => stack.stop());

  it('GET /v1/payment/{id} answers the Payment as it stands', async () => {
    const p = (await m.authorize({ metadata: { a: 'b' } })).body;
    await m.capture(p.id, 600);
    const r = await m.get(p.id);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: p.id, status: 'captured', amountCaptured: usd(600), metadata: { a: 'b' } });
  });

  it('GET /v1/payment/inquiry/{paymentCode or id}', async () => {
    const paymentCode = `rc-${uid()}`;
    const p = (await m.purchase({ paymentCode })).body;
    const byCode = await stack.http('GET', `/v1/payment/inquiry/${paymentCode}`, { key: m.key });
    expect(byCode.body).toMatchObject({ id: p.id, paymentCode });
    const byId = await stack.http('GET', `/v1/payment/inquiry/${p.id}`, { key: m.key });
    expect(byId.body.id).toBe(p.id);
    const generated = (await m.purchase()).body;
    const byGenerated = await stack.http('GET', `/v1/payment/inquiry/${generated.paymentCode}`, { key: m.key });
    expect(byGenerated.body.id).toBe(generated.id);
    expectError(await stack.http('GET', '/v1/payment/inquiry/nothing-here', { key: m.key }), 404, 'NOT_FOUND');
  });

  it('GET /v1/payment?orderCode= lists every attempt, newest first, as a bare array', async () => {
    const orderCode = `o-${uid()}`;
    const declined = (await m.purchase({ orderCode, card: cardData('4000000000000002') })).body;
    const paid = (await m.purchase({ orderCode })).body;
    await m.purchase();
    const r = await stack.http('GET', `/v1/payment?orderCode=${orderCode}`, { key: m.key });
    expect(r.status).toBe(200);
    expect(r.body.map((p: { id: string; status: string }) => [p.id, p.status])).toEqual([
      [paid.id, 'captured'],
      [declined.id, 'declined'],
    ]);
    const none = await stack.http('GET', '/v1/payment?orderCode=never-used', { key: m.key });
    expect(none.body).toEqual([]);
  });

  it('pages the list with limit and startingAfter', async () => {
    const fresh = await sandboxMerchant(stack);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await fresh.purchase()).body.id);
    const page1 = await stack.http('GET', '/v1/payment?limit=2', { key: fresh.key });
    expect(page1.body.map((p: { id: string }) => p.id)).toEqual([ids[4], ids[3]]);
    const page2 = await stack.http('GET', `/v1/payment?limit=2&startingAfter=${ids[3]}`, { key: fresh.key });
    expect(page2.body.map((p: { id: string }) => p.id)).toEqual([ids[2], ids[1]]);
    expectError(
      await stack.http('GET', '/v1/payment?limit=101', { key: fresh.key }),
      400,
      'VALIDATION_FAILED',
      'limit',
    );
  });

  it('an unknown or malformed id is 404 NOT_FOUND', async () => {
    expectError(await m.get('01a1fe79-0000-7000-8000-000000000000'), 404, 'NOT_FOUND');
    expectError(await m.get('not-a-uuid'), 404, 'NOT_FOUND');
  });

  describe('another merchant’s payments are 404 everywhere', () => {
    it.each(['get', 'inquiry', 'capture', 'refund', 'cancel', 'cancel_or_refund'] as const)('%s', async (what) => {
      const p = (await m.authorize()).body;
      const r =
        what === 'get'
          ? await other.get(p.id)
          : what === 'inquiry'
            ? await stack.http('GET', `/v1/payment/inquiry/${p.paymentCode}`, { key: other.key })
            : await other.operate(p.id, what, { amount: usd(100) });
      expectError(r, 404, 'NOT_FOUND');
      expect((await m.get(p.id)).body.status).toBe('authorized');
    });

    it('and lists of another merchant do not show them', async () => {
      const orderCode = `o-${uid()}`;
      await m.purchase({ orderCode });
      expect((await stack.http('GET', `/v1/payment?orderCode=${orderCode}`, { key: other.key })).body).toEqual([]);
    });
  });

  describe('sandbox and production never mix', () => {
    it('a production key gets 404 for a sandbox payment, and the other way round', async () => {
      const sandboxPayment = (await m.authorize()).body;
      expectError(await production.get(sandboxPayment.id), 404, 'NOT_FOUND');
      expectError(await production.capture(sandboxPayment.id, 100), 404, 'NOT_FOUND');
      const prodPayment = (await production.authorize()).body;
      expect(prodPayment.status).toBe('authorized');
      expectError(await m.get(prodPayment.id), 404, 'NOT_FOUND');
      expectError(await m.operate(prodPayment.id, 'cancel'), 404, 'NOT_FOUND');
      expect((await production.get(prodPayment.id)).body.status).toBe('authorized');
    });

    it('order codes and payment codes are per environment', async () => {
      const orderCode = `o-${uid()}`;
      const paymentCode = `rc-${uid()}`;
      expect((await m.purchase({ orderCode, paymentCode })).status).toBe(200);
      expect((await production.purchase({ orderCode, paymentCode })).status).toBe(200);
    });

    it('the sandbox test cards behave the same in production', async () => {
      const r = await production.purchase({ card: cardData('4000000000009995') });
      expect(r.body).toMatchObject({ status: 'declined', refusalCode: { reasonCode: '51' } });
    });
  });
  describe('keys and merchants on the payment routes', () => {
    it('403 MERCHANT_MISMATCH for another merchant’s code; 400 MERCHANT_CODE_REQUIRED on a multi-merchant GET', async () => {
      expectError(await m.purchase({ merchantCode: other.merchantCode }), 403, 'MERCHANT_MISMATCH', 'merchantCode');
      const p = (await m.authorize()).body;
      expectError(
        await m.operate(p.id, 'capture', { merchantCode: other.merchantCode, amount: usd(1) }),
        403,
        'MERCHANT_MISMATCH',
      );
      const multi = (await stack.key([m.merchantCode, other.merchantCode])).key;
      expectError(await stack.http('GET', `/v1/payment/${p.id}`, { key: multi }), 400, 'MERCHANT_CODE_REQUIRED');
      const r = await stack.http('GET', `/v1/payment/${p.id}?merchantCode=${m.merchantCode}`, { key: multi });
      expect(r.body.id).toBe(p.id);
      expectError(
        await stack.http('GET', `/v1/payment/${p.id}?merchantCode=${other.merchantCode}`, { key: multi }),
        404,
        'NOT_FOUND',
      );
    });

    it('401 without a key, 403 for a public key', async () => {
      expectError(await stack.http('POST', '/v1/payment/purchase', { body: {} }), 401, 'AUTH_MISSING');
      const pub = (await stack.key([m.merchantCode], 'public')).key;
      expectError(
        await stack.http('POST', '/v1/payment/purchase', { key: pub, body: {} }),
        403,
        'AUTH_INSUFFICIENT_SCOPE',
      );
    });
  });
});
