import { TestStack } from '../support/stack';
import {
  cardData,
  expectError,
  FUTURE,
  PaymentsClient,
  paymentsQuery,
  sandboxMerchant,
  uid,
  usd,
} from './payments-fixtures';

describe('POST /v1/payment/purchase and /authorization', () => {
  let stack: TestStack;
  let m: PaymentsClient;

  beforeAll(async () => ([stack, m] = await TestStack.startWith(sandboxMerchant)));
  afterAll(() => stack.stop());

  it('a purchase answers 200 with the whole Payment, captured', async () => {
    const r = await m.purchase({ orderCode: 'order-shape', metadata: { cart: '42' } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      status: 'captured',
      paymentCode: expect.stringMatching(/^PAY-[A-Z0-9]{12}$/),
      orderCode: 'order-shape',
      merchantCode: m.merchantCode,
      autorizationCode: expect.stringMatching(/^[A-Z0-9]{6}$/),
      paymentMethod: 'card',
      connectionCode: 'sandbox',
      connectionName: 'Sandbox acquirer',
      amount: usd(1000),
      amountCaptured: usd(1000),
      amountRefunded: usd(0),
      card: {
        cardData: {
          brand: 'visa',
          cardNumber: '411111****1111',
          type: 'credit',
          expiryMonth: FUTURE.expiryMonth,
          expiryYear: FUTURE.expiryYear,
        },
        networkTransactionId: expect.stringMatching(/^\d{15}$/),
        networkReferenceId: expect.any(String),
      },
      metadata: { cart: '42' },
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(JSON.stringify(r.body)).not.toContain('4111111111111111');
  });

  it('an authorization holds the funds: authorized, nothing captured', async () => {
    const r = await m.authorize({ amount: { currency: 'JPY', value: 500, exponent: 0 } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      status: 'authorized',
      amount: { currency: 'JPY', value: 500, exponent: 0 },
      amountCaptured: { currency: 'JPY', value: 0, exponent: 0 },
    });
  });

  it('a zero-value authorization verifies the card and cannot be captured', async () => {
    const r = await m.authorize({ amount: usd(0) });
    expect(r.body).toMatchObject({ status: 'authorized', amount: usd(0) });
    expectError(await m.capture(r.body.id, 1), 409, 'INVALID_STATE');
  });

  it('records the stored-credential, instalment, shopper and address details it was given', async () => {
    const r = await m.purchase({
      card: {
        ...cardData('4111111111111111', { cardAddress: { line1: '1 Main St', city: 'Springfield', country: 'US' } }),
        cardOnFile: { type: 'recurring', initiator: 'cardholder' },
        instalments: 3,
        networkTransactionId: '123456789012345',
      },
      shopper: { id: 'shopper-1', email: 'jane@example.com', name: 'Jane Doe' },
      ipAddress: '203.0.113.7',
      webhookUrl: 'https://shop.example.com/hooks',
      threeDsSetup: { sessionId: 'ddc-1' },
    });
    expect(r.status).toBe(200);
    const [row] = await paymentsQuery(
      stack,
      `SELECT card_on_file, instalments, shopper, ip_address, webhook_url, three_ds_session_id, card_address, card
       FROM payments WHERE id = $1`,
      [r.body.id],
    );
    expect(row).toMatchObject({
      card_on_file: { type: 'recurring', initiator: 'cardholder' },
      instalments: 3,
      shopper: { id: 'shopper-1', email: 'jane@example.com', name: 'Jane Doe' },
      ip_address: '203.0.113.7',
      webhook_url: 'https://shop.example.com/hooks',
      three_ds_session_id: 'ddc-1',
      card_address: { line1: '1 Main St', city: 'Springfield', country: 'US' },
    });
    expect(JSON.stringify(row)).not.toContain('4111111111111111');
  });

  it('names unknown fields in X-Ignored-Fields and still answers', async () => {
    const r = await m.purchase({ browserInfo: { ua: 'x' }, card: { ...cardData(), wallet: 'y' } });
    expect(r.status).toBe(200);
    expect(r.headers.get('x-ignored-fields')?.split(', ').sort()).toEqual(['browserInfo', 'card.wallet']);
  });

  describe('400 VALIDATION_FAILED', () => {
    const futureYear = FUTURE.expiryYear;
    it.each([
      ['no instrument', { card: {} }, 'card'],
      ['two instruments', { card: { ...cardData(), tokenData: { token: 'vt_x' } } }, 'card'],
      ['no card at all', { card: undefined }, 'card'],
      ['a Luhn-invalid number', { card: cardData('4111111111111112') }, 'card.cardData.cardNumber'],
      ['a past expiry', { card: cardData('4111111111111111', { expiryYear: '2020' }) }, 'card.cardData.expiryYear'],
      ['a malformed month', { card: cardData('4111111111111111', { expiryMonth: '13' }) }, 'card.cardData.expiryMonth'],
      ['an http webhookUrl', { webhookUrl: 'http://shop.example.com/hooks' }, 'webhookUrl'],
      ['an unknown paymentMethod', { paymentMethod: 'bitcoin' }, 'paymentMethod'],
      ['a missing orderCode', { orderCode: undefined }, 'orderCode'],
      ['a missing amount', { amount: undefined }, 'amount'],
      ['an amount that is not an object', { amount: 5 }, 'amount'],
      ['a float value', { amount: { currency: 'USD', value: 10.5, exponent: 2 } }, 'amount.value'],
      ['an unknown currency', { amount: { currency: 'ZZZ', value: 10, exponent: 2 } }, 'amount.currency'],
      ['a purchase of 0', { amount: usd(0) }, 'amount.value'],
      ['tokenizing without shopper.id', { card: cardData('4111111111111111', { tokenize: true }) }, 'shopper.id'],
      ['a bad ipAddress', { ipAddress: 'not-an-ip' }, 'ipAddress'],
      [
        'a bad cardOnFile',
        { card: { ...cardData(), cardOnFile: { type: 'x', initiator: 'merchant' } } },
        'card.cardOnFile.type',
      ],
      ['a bad paymentCode', { paymentCode: 'has space' }, 'paymentCode'],
      [
        'a bad expiryYear',
        { card: cardData('4111111111111111', { expiryYear: `${futureYear}1` }) },
        'card.cardData.expiryYear',
      ],
    ])('for %s', async (_, override, param) => {
      const r = await m.purchase(override);
      expectError(r, 400, 'VALIDATION_FAILED', param);
    });

    const fiftyOne = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v']));
    it.each([
      ['51 keys', fiftyOne],
      ['a 41-character key', { ['k'.repeat(41)]: 'v' }],
      ['a 501-character value', { k: 'v'.repeat(501) }],
      ['a non-string value', { k: 1 }],
      ['an array', ['a']],
    ])('for metadata with %s', async (_, metadata) => {
      expectError(await m.purchase({ metadata }), 400, 'VALIDATION_FAILED', 'metadata');
    });

    it('accepts metadata at the limits', async () => {
      const max = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`${i}`.padEnd(40, 'k'), 'v'.repeat(500)]));
      expect((await m.purchase({ metadata: max })).status).toBe(200);
    });
  });

  it('422 INVALID_EXPONENT for an exponent that is not the currency’s', async () => {
    expectError(await m.purchase({ amount: { currency: 'USD', value: 10, exponent: 0 } }), 422, 'INVALID_EXPONENT');
  });

  it('404 NOT_FOUND for an unknown nonce or token', async () => {
    expectError(
      await m.purchase({ card: { nonceData: { nonce: 'nonce_unknown' } } }),
      404,
      'NOT_FOUND',
      'card.nonceData.nonce',
    );
    expectError(
      await m.purchase({ card: { tokenData: { token: 'vt_unknown' } } }),
      404,
      'NOT_FOUND',
      'card.tokenData.token',
    );
  });

  describe('orderCode and paymentCode', () => {
    it('409 DUPLICATE_ORDER_CODE while an earlier payment of the order is live', async () => {
      const orderCode = `o-${uid()}`;
      expect((await m.purchase({ orderCode })).status).toBe(200);
      expectError(await m.purchase({ orderCode }), 409, 'DUPLICATE_ORDER_CODE', 'orderCode');
      expectError(await m.authorize({ orderCode }), 409, 'DUPLICATE_ORDER_CODE');
    });

    it('lets the shopper retry an order after a decline, a failure or a cancel', async () => {
      const orderCode = `o-${uid()}`;
      expect((await m.purchase({ orderCode, card: cardData('4000000000009995') })).body.status).toBe('declined');
      expect((await m.purchase({ orderCode, card: cardData('4000000000000119') })).body.status).toBe('failed');
      const held = await m.authorize({ orderCode });
      expect(held.body.status).toBe('authorized');
      expect((await m.operate(held.body.id, 'cancel')).status).toBe(200);
      expect((await m.purchase({ orderCode })).body.status).toBe('captured');
    });

    it('echoes a merchant paymentCode, unique in its environment across merchants (409 DUPLICATE_PAYMENT_CODE)', async () => {
      const paymentCode = `rcpt-${uid()}`;
      const r = await m.purchase({ paymentCode });
      expect(r.body.paymentCode).toBe(paymentCode);
      expectError(await m.purchase({ paymentCode }), 409, 'DUPLICATE_PAYMENT_CODE', 'paymentCode');
      const other = await sandboxMerchant(stack);
      expectError(await other.purchase({ paymentCode }), 409, 'DUPLICATE_PAYMENT_CODE', 'paymentCode');
    });

    it('holds the order code against concurrent attempts: one payment per live order', async () => {
      const orderCode = `o-${uid()}`;
      const answers = await Promise.all(Array.from({ length: 5 }, () => m.purchase({ orderCode })));
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409]);
      const rows = await paymentsQuery(stack, 'SELECT id FROM payments WHERE order_code = $1', [orderCode]);
      expect(rows).toHaveLength(1);
    });
  });

  it('never logs a PAN or a CVV', async () => {
    await m.purchase({ card: cardData('5500005555555559', { cvv: '987' }) });
    const text = [stack.log('payments').text(), stack.log('gateway').text()].join('\n');
    expect(text).not.toContain('5500005555555559');
    expect(text).not.toContain('4111111111111111');
    expect(text).not.toMatch(/"cvv"/);
  });
});
