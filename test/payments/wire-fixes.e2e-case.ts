import { TestStack } from '../support/stack';
import {
  cardData,
  expectError,
  PaymentsClient,
  paymentBody,
  paymentsQuery,
  sandboxMerchant,
  VISA,
} from './payments-fixtures';

/** Wire conventions: merchantCode implied by a single-merchant key, the SDK session's amount, empty optional text. */
describe('wire rules', () => {
  let stack: TestStack;
  let m: PaymentsClient;

  beforeAll(async () => ([stack, m] = await TestStack.startWith(sandboxMerchant)));
  afterAll(() => stack.stop());

  it('a single-merchant key needs no merchantCode on the payment routes: purchase, authorization, operations', async () => {
    const withoutCode = (extra: Record<string, unknown> = {}) => {
      const { merchantCode: _dropped, ...body } = paymentBody(m.merchantCode, extra);
      return body;
    };
    const purchase = await stack.http('POST', '/v1/payment/purchase', { key: m.key, body: withoutCode() });
    expect(purchase.body).toMatchObject({ status: 'captured', merchantCode: m.merchantCode });
    const authorized = await stack.http('POST', '/v1/payment/authorization', { key: m.key, body: withoutCode() });
    expect(authorized.body).toMatchObject({ status: 'authorized', merchantCode: m.merchantCode });
    const amount = { currency: 'USD', value: 1000, exponent: 2 };
    const operate = (id: string, op: string, body: Record<string, unknown>) =>
      stack.http('POST', `/v1/payment/${id}/${op}`, { key: m.key, body });
    expect((await operate(authorized.body.id, 'capture', { amount })).body.status).toBe('captured');
    expect((await operate(purchase.body.id, 'refund', { amount })).body.status).toBe('refunded');
    const held = (await m.authorize()).body;
    expect((await operate(held.id, 'cancel', {})).body.status).toBe('cancelled');
  });

  it('a key of several merchants without merchantCode is 400 MERCHANT_CODE_REQUIRED naming its merchants', async () => {
    const other = await stack.merchant();
    const multi = (await stack.key([m.merchantCode, other])).key;
    const { merchantCode: _dropped, ...body } = paymentBody(m.merchantCode);
    const purchase = await stack.http('POST', '/v1/payment/purchase', { key: multi, body });
    expectError(purchase, 400, 'MERCHANT_CODE_REQUIRED', 'merchantCode');
    expect(purchase.body.error.message).toBe(
      `This key belongs to several merchants (${[m.merchantCode, other].sort().join(', ')}): send merchantCode (in the body, or ` +
        'in the query string on GET) to say which one the request is for',
    );
    const p = (await m.authorize()).body;
    for (const [op, opBody] of [
      ['capture', { amount: { currency: 'USD', value: 100, exponent: 2 } }],
      ['cancel_or_refund', {}],
    ] as const) {
      const r = await stack.http('POST', `/v1/payment/${p.id}/${op}`, { key: multi, body: opBody });
      expectError(r, 400, 'MERCHANT_CODE_REQUIRED', 'merchantCode');
    }
    const named = await stack.http('POST', `/v1/payment/${p.id}/cancel`, {
      key: multi,
      body: { merchantCode: m.merchantCode },
    });
    expect(named.body.status).toBe('cancelled');
  });

  it('POST /v1/sdk/session takes amount as minor units beside currency, or as an Amount object', async () => {
    const claims = async (body: Record<string, unknown>) => {
      const r = await stack.http('POST', '/v1/sdk/session', { key: m.key, body });
      expect(r.status).toBe(200);
      const payload = r.body.clientToken.split('.')[1] as string;
      return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')).checkout;
    };
    const brl = { currency: 'BRL', value: 1050, exponent: 2 };
    expect(await claims({ currency: 'BRL', amount: 1050 })).toEqual({ currency: 'BRL', amount: brl });
    expect(await claims({ amount: brl })).toEqual({ amount: brl });
    expect((await claims({ currency: 'JPY', amount: 500 })).amount).toEqual({
      currency: 'JPY',
      value: 500,
      exponent: 0,
    });
    const session = (body: Record<string, unknown>) => stack.http('POST', '/v1/sdk/session', { key: m.key, body });
    expectError(await session({ currency: 'BRL', amount: 10.5 }), 400, 'VALIDATION_FAILED', 'amount.value');
    expectError(await session({ currency: 'BRL', amount: -1 }), 400, 'VALIDATION_FAILED', 'amount.value');
    expectError(await session({ amount: 1050 }), 400, 'VALIDATION_FAILED', 'amount.currency');
    expectError(await session({ currency: 'USD', amount: brl }), 400, 'VALIDATION_FAILED', 'amount.currency');
  });

  it('an empty string in an optional free-text field means absent; a required one is still 400', async () => {
    const card = cardData(VISA, { cardholderName: '' });
    const paid = await m.purchase({ card, shopper: { name: '' } });
    expect([paid.status, paid.body.status]).toEqual([200, 'captured']);
    const amount = { currency: 'USD', value: 100, exponent: 2 };
    const refund = await m.operate(paid.body.id, 'refund', { amount, reference: '' });
    expect([refund.status, refund.body.status]).toEqual([200, 'refunded']);
    const rows = await paymentsQuery(stack, 'SELECT reference FROM payment_operations WHERE payment_id = $1', [
      paid.body.id,
    ]);
    expect(rows).toEqual([{ reference: null }]);
    expectError(await m.purchase({ orderCode: '' }), 400, 'VALIDATION_FAILED', 'orderCode');
  });
});
