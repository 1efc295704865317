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

/** Wire conventions: required merchantCode, the SDK session's amount, empty optional text. */
describe('wire rules', () => {
  let stack: TestStack;
  let m: PaymentsClient;

  beforeAll(async () => ([stack, m] = await TestStack.startWith(sandboxMerchant)));
  afterAll(() => stack.stop());

  it('a merchantCode that the route requires is 400 VALIDATION_FAILED when absent, whatever the key', async () => {
    const other = await stack.merchant();
    const multi = (await stack.key([m.merchantCode, other])).key;
    const { merchantCode: _dropped, ...body } = paymentBody(m.merchantCode);
    for (const key of [multi, m.key]) {
      const purchase = await stack.http('POST', '/v1/payment/purchase', { key, body });
      expectError(purchase, 400, 'VALIDATION_FAILED', 'merchantCode');
      const auth = await stack.http('POST', '/v1/payment/authorization', { key, body });
      expectError(auth, 400, 'VALIDATION_FAILED', 'merchantCode');
    }
    const p = (await m.authorize()).body;
    const capture = await stack.http('POST', `/v1/payment/${p.id}/capture`, {
      key: multi,
      body: { amount: { currency: 'USD', value: 100, exponent: 2 } },
    });
    expectError(capture, 400, 'VALIDATION_FAILED', 'merchantCode');
    // cancel_or_refund's merchantCode is optional: a multi-merchant key still has to name one.
    const reverse = await stack.http('POST', `/v1/payment/${p.id}/cancel_or_refund`, { key: multi, body: {} });
    expectError(reverse, 400, 'MERCHANT_CODE_REQUIRED', 'merchantCode');
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
