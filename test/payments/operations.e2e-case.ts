import { TestStack } from '../support/stack';
import { cardData, expectError, PaymentsClient, sandboxMerchant, usd } from './payments-fixtures';

/** Capture, refund, cancel and cancel_or_refund: their answers and every rule of their states and amounts. */
describe('payment operations', () => {
  let stack: TestStack;
  let m: PaymentsClient;

  beforeAll(async () => ([stack, m] = await TestStack.startWith(sandboxMerchant)));
  afterAll(() => stack.stop());

  const authorized = async (value = 1000): Promise<{ id: string; orderCode: string; paymentCode: string }> =>
    (await m.authorize({ amount: usd(value) })).body;
  const captured = async (value = 1000): Promise<{ id: string }> => (await m.purchase({ amount: usd(value) })).body;

  describe('capture', () => {
    it('captures the whole authorization and answers the Operation result', async () => {
      const p = await authorized();
      const r = await m.capture(p.id, 1000);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({
        id: p.id,
        merchantCode: m.merchantCode,
        orderCode: p.orderCode,
        paymentCode: p.paymentCode,
        amount: usd(1000),
        status: 'captured',
      });
      expect((await m.get(p.id)).body).toMatchObject({ status: 'captured', amountCaptured: usd(1000) });
    });

    it('captures in part once; the rest of the hold is released', async () => {
      const p = await authorized();
      expect((await m.capture(p.id, 400)).body).toMatchObject({ status: 'captured', amount: usd(400) });
      expect((await m.get(p.id)).body).toMatchObject({ amount: usd(1000), amountCaptured: usd(400) });
      expectError(await m.capture(p.id, 100), 409, 'INVALID_STATE');
      expectError(await m.refund(p.id, 401), 422, 'AMOUNT_EXCEEDS_AVAILABLE', 'amount.value');
    });

    it('422 AMOUNT_EXCEEDS_AVAILABLE above the authorized value', async () => {
      expectError(await m.capture((await authorized()).id, 1001), 422, 'AMOUNT_EXCEEDS_AVAILABLE', 'amount.value');
    });

    it('422 CURRENCY_MISMATCH and INVALID_EXPONENT', async () => {
      const p = await authorized();
      const eur = { amount: { currency: 'EUR', value: 100, exponent: 2 } };
      expectError(await m.operate(p.id, 'capture', eur), 422, 'CURRENCY_MISMATCH', 'amount.currency');
      const exp = { amount: { currency: 'USD', value: 100, exponent: 3 } };
      expectError(await m.operate(p.id, 'capture', exp), 422, 'INVALID_EXPONENT', 'amount.exponent');
    });

    it('400 for a capture of 0', async () => {
      expectError(await m.capture((await authorized()).id, 0), 400, 'VALIDATION_FAILED', 'amount.value');
      expectError(await m.operate((await authorized()).id, 'capture', {}), 400, 'VALIDATION_FAILED', 'amount');
    });

    it('409 INVALID_STATE before any amount check: a purchase, a declined or a cancelled payment', async () => {
      expectError(await m.capture((await captured()).id, 999_999), 409, 'INVALID_STATE');
      const declined = (await m.purchase({ card: cardData('4000000000000002') })).body;
      expectError(await m.capture(declined.id, 5), 409, 'INVALID_STATE');
      const p = await authorized();
      await m.operate(p.id, 'cancel');
      expectError(
        await m.operate(p.id, 'capture', { amount: { currency: 'EUR', value: 5, exponent: 2 } }),
        409,
        'INVALID_STATE',
      );
    });
  });

  describe('refund', () => {
    it('partial refunds keep the payment captured until they reach the captured value', async () => {
      const p = await captured(1000);
      const first = await m.refund(p.id, 300);
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ id: p.id, amount: usd(300), status: 'refunded' });
      expect((await m.get(p.id)).body).toMatchObject({ status: 'captured', amountRefunded: usd(300) });
      expectError(await m.refund(p.id, 701), 422, 'AMOUNT_EXCEEDS_AVAILABLE');
      expect((await m.refund(p.id, 700)).body.status).toBe('refunded');
      expect((await m.get(p.id)).body).toMatchObject({ status: 'refunded', amountRefunded: usd(1000) });
      expectError(await m.refund(p.id, 1), 409, 'INVALID_STATE');
    });

    it('409 INVALID_STATE for an authorized payment; 400 for 0; 422 for another currency', async () => {
      expectError(await m.refund((await authorized()).id, 100), 409, 'INVALID_STATE');
      const p = await captured();
      expectError(await m.refund(p.id, 0), 400, 'VALIDATION_FAILED', 'amount.value');
      const jpy = { amount: { currency: 'JPY', value: 1, exponent: 0 } };
      expectError(await m.operate(p.id, 'refund', jpy), 422, 'CURRENCY_MISMATCH');
    });
  });

  describe('cancel', () => {
    it('voids an authorization: cancelled, with the whole amount', async () => {
      const p = await authorized(700);
      const r = await m.operate(p.id, 'cancel', { reference: 'void-1' });
      expect(r.body).toMatchObject({ id: p.id, amount: usd(700), status: 'cancelled' });
      expect((await m.get(p.id)).body.status).toBe('cancelled');
      expectError(await m.operate(p.id, 'cancel'), 409, 'INVALID_STATE');
    });

    it('409 INVALID_STATE for a captured payment; an amount other than the whole is refused', async () => {
      expectError(await m.operate((await captured()).id, 'cancel'), 409, 'INVALID_STATE');
      const p = await authorized(700);
      expectError(await m.operate(p.id, 'cancel', { amount: usd(100) }), 400, 'VALIDATION_FAILED');
      expect((await m.operate(p.id, 'cancel', { amount: usd(700) })).body.status).toBe('cancelled');
    });
  });

  describe('cancel_or_refund', () => {
    it('cancels an authorization', async () => {
      const p = await authorized(500);
      expect((await m.operate(p.id, 'cancel_or_refund')).body).toMatchObject({ status: 'cancelled', amount: usd(500) });
    });

    it('refunds what is left of a captured payment', async () => {
      const p = await captured(1000);
      await m.refund(p.id, 250);
      expect((await m.operate(p.id, 'cancel_or_refund')).body).toMatchObject({ status: 'refunded', amount: usd(750) });
      expect((await m.get(p.id)).body).toMatchObject({ status: 'refunded', amountRefunded: usd(1000) });
      expectError(await m.operate(p.id, 'cancel_or_refund'), 409, 'INVALID_STATE');
    });

    it('needs no merchantCode for a single-merchant key', async () => {
      const p = await authorized();
      const r = await stack.http('POST', `/v1/payment/${p.id}/cancel_or_refund`, { key: m.key, body: {} });
      expect(r.body.status).toBe('cancelled');
    });
  });

  it.each([
    ['capture', authorized, 'captured'],
    ['refund', captured, 'refunded'],
    ['cancel', authorized, 'cancelled'],
  ] as const)('%s needs no merchantCode for a single-merchant key', async (op, make, status) => {
    const p = await make();
    const body = op === 'cancel' ? {} : { amount: usd(1000) };
    const r = await stack.http('POST', `/v1/payment/${p.id}/${op}`, { key: m.key, body });
    expect(r.body).toMatchObject({ merchantCode: m.merchantCode, status });
  });

  it.each(['capture', 'refund', 'cancel', 'cancel_or_refund'] as const)(
    '%s of an unknown or malformed id is 404 NOT_FOUND',
    async (op) => {
      for (const id of ['01a1fe79-0000-7000-8000-000000000000', 'not-a-uuid', 'order-1']) {
        expectError(await m.operate(id, op, { amount: usd(100) }), 404, 'NOT_FOUND');
      }
    },
  );
});
