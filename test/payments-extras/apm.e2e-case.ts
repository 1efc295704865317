import { ManualClock } from '@app/clock';
import {
  cardData,
  expectError,
  PaymentsClient,
  paymentEventTypes,
  paymentsQuery,
  sandboxMerchant,
  VISA,
} from '../payments/payments-fixtures';
import { TestStack } from '../support/stack';
import { usd } from '../support/amounts';

const brl = (value: number) => ({ currency: 'BRL', value, exponent: 2 });
const PIX = { paymentMethod: 'pix', amount: brl(1050), card: undefined, apm: { payerDocument: '12345678909' } };
const BOLETO = {
  paymentMethod: 'boleto',
  amount: brl(25000),
  card: undefined,
  apm: { payerDocument: '12345678909', payerName: 'Maria Silva', dueDate: '2030-05-20' },
};
const ACH = {
  paymentMethod: 'ach',
  amount: usd(5000),
  card: undefined,
  apm: {
    accountHolderName: 'John Doe',
    accountNumber: '000123456789',
    routingNumber: '110000000',
    accountType: 'checking',
  },
};

describe('APMs: pix, boleto and ach wait for the payer; the sandbox settles them', () => {
  let stack: TestStack;
  let client: PaymentsClient;
  const clock = new ManualClock(new Date('2030-05-10T15:00:00.000Z'));

  beforeAll(
    async () =>
      ([stack, client] = await TestStack.startWith(sandboxMerchant, {
        clock,
        env: { PUBLIC_BASE_URL: 'https://pay.example.test' },
      })),
  );
  afterAll(() => stack.stop());

  const settle = (id: string, outcome: string, key = client.key) =>
    stack.http('POST', `/v1/sandbox/payment/${id}/settle`, { key, body: { outcome } });
  const events = (id: string) => paymentEventTypes(stack, id);

  it('pix: pending_action with a QR code (EMV BR Code) and its hosted page', async () => {
    const r = await client.purchase(PIX);
    expect(r.status).toBe(200);
    const { sessionId } = r.body.actionRequired;
    expect(r.body).toMatchObject({ status: 'pending_action', paymentMethod: 'pix' });
    expect(r.body.actionRequired).toEqual({
      type: 'qr_code',
      url: `https://pay.example.test/v1/apm/${sessionId}`,
      sessionId,
      expiresAt: '2030-05-10T16:00:00.000Z',
    });
    expect(r.body.apm.qrCode).toMatch(/^000201.*5802BR.*6304[0-9A-F]{4}$/);
    expect(r.body.apm.qrCode).toContain('540510.50');
    expect(r.body.apm.expiresAt).toBe('2030-05-10T16:00:00.000Z');
    const short = await client.purchase({ ...PIX, apm: { expiresInSeconds: 600 } });
    expect(short.body.apm.expiresAt).toBe('2030-05-10T15:10:00.000Z');
    const page = await fetch(`${stack.url}/v1/apm/${sessionId}`);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain(r.body.apm.qrCode);
    expectError(await stack.http('GET', `/v1/3ds/challenge/${sessionId}`), 404, 'NOT_FOUND');
  });

  it('boleto: a 47-digit line payable through its due date', async () => {
    const r = await client.purchase(BOLETO);
    expect(r.body.status).toBe('pending_action');
    expect(r.body.actionRequired.type).toBe('barcode');
    expect(r.body.apm.barcode).toMatch(/^999\d{44}$/);
    expect(r.body.apm.barcode.slice(-10)).toBe('0000025000');
    expect(r.body.apm.expiresAt).toBe('2030-05-20T23:59:59.999Z');
    const byDefault = await client.purchase({ ...BOLETO, apm: { ...BOLETO.apm, dueDate: undefined } });
    expect(byDefault.body.apm.expiresAt).toBe('2030-05-13T23:59:59.999Z');
  });

  it('ach: a redirect to the bank authorization page', async () => {
    const r = await client.purchase(ACH);
    expect(r.body.status).toBe('pending_action');
    expect(r.body.actionRequired).toMatchObject({ type: 'redirect', expiresAt: '2030-05-10T16:00:00.000Z' });
    expect(r.body.apm.url).toBe(r.body.actionRequired.url);
    expect(JSON.stringify(r.body)).not.toContain('000123456789');
  });

  it.each([
    ['boleto without payerName', { ...BOLETO, apm: { payerDocument: '12345678909' } }, 'apm.payerName'],
    ['boleto due in the past', { ...BOLETO, apm: { ...BOLETO.apm, dueDate: '2030-05-09' } }, 'apm.dueDate'],
    [
      'boleto with a malformed document',
      { ...BOLETO, apm: { ...BOLETO.apm, payerDocument: '123' } },
      'apm.payerDocument',
    ],
    ['pix in USD', { ...PIX, amount: usd(1000) }, 'amount.currency'],
    ['ach in BRL', { ...ACH, amount: brl(1000) }, 'amount.currency'],
    [
      'ach with a bad routing checksum',
      { ...ACH, apm: { ...ACH.apm, routingNumber: '123456789' } },
      'apm.routingNumber',
    ],
    ['ach with a bad account type', { ...ACH, apm: { ...ACH.apm, accountType: 'brokerage' } }, 'apm.accountType'],
    ['ach without apm', { ...ACH, apm: undefined }, 'apm.accountHolderName'],
  ])('%s → 400 VALIDATION_FAILED', async (_, body, param) => {
    expectError(await client.purchase(body), 400, 'VALIDATION_FAILED', param);
  });

  it('settle paid → captured, with the event in the outbox; resume of the session polls the payment', async () => {
    const p = (await client.purchase(PIX)).body;
    const poll = await stack.http('POST', '/v1/payment/resume', { body: { sessionId: p.actionRequired.sessionId } });
    expect(poll.body).toMatchObject({ id: p.id, status: 'pending_action' });
    const r = await settle(p.id, 'paid');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: p.id, status: 'captured', amountCaptured: { value: 1050 } });
    expect(r.body.apm.qrCode).toBe(p.apm.qrCode);
    expect(await events(p.id)).toEqual(['payment.pending', 'payment.captured']);
    const after = await stack.http('POST', '/v1/payment/resume', { body: { sessionId: p.actionRequired.sessionId } });
    expect(after.body.status).toBe('captured');
    expectError(await settle(p.id, 'failed'), 409, 'INVALID_STATE');
    const refund = await client.operate(p.id, 'refund', { amount: brl(50) });
    expect(refund.body).toMatchObject({ status: 'refunded', amount: brl(50) });
  });

  it.each([
    ['failed', 'failed', 'payment.failed'],
    ['expired', 'cancelled', 'payment.cancelled'],
  ])('settle %s → %s', async (outcome, status, event) => {
    const p = (await client.purchase(BOLETO)).body;
    expect((await settle(p.id, outcome)).body.status).toBe(status);
    expect(await events(p.id)).toEqual(['payment.pending', event]);
    expect((await client.get(p.id)).body.status).toBe(status);
  });

  it('settle: sandbox keys of the payment’s merchant only, on pending APM payments', async () => {
    const p = (await client.purchase(ACH)).body;
    const prod = (await stack.key([client.merchantCode], 'private', 'production')).key;
    expectError(await settle(p.id, 'paid', prod), 403, 'AUTH_INSUFFICIENT_SCOPE');
    expectError(await settle(p.id, 'paid', (await sandboxMerchant(stack)).key), 404, 'NOT_FOUND');
    expectError(await settle('not-a-uuid', 'paid'), 404, 'NOT_FOUND');
    expectError(await settle(p.id, 'refunded'), 400, 'VALIDATION_FAILED', 'outcome');
    const card = (await client.purchase({ card: cardData(VISA, { expiryYear: '2035' }) })).body;
    expect(card.status).toBe('captured');
    expectError(await settle(card.id, 'paid'), 409, 'INVALID_STATE');
    expect((await settle(p.id, 'paid')).body.status).toBe('captured');
  });
  describe('the instructions are simulated: sandbox payments only', () => {
    it.each([
      ['pix', PIX],
      ['boleto', BOLETO],
      ['ach', ACH],
    ])('a production %s payment is 400 naming paymentMethod; nothing is kept', async (method, body) => {
      await stack.productionSimulator(client.merchantCode);
      const prod = new PaymentsClient(
        stack,
        (await stack.key([client.merchantCode], 'private', 'production')).key,
        client.merchantCode,
      );
      const r = await prod.purchase(body);
      expectError(r, 400, 'VALIDATION_FAILED', 'paymentMethod');
      expect(r.body.error.message).toMatch(new RegExp(`${method} payments are simulated .*sandbox only`));
      const kept = await paymentsQuery(
        stack,
        `SELECT id FROM payments WHERE environment = 'production' AND payment_method = $1`,
        [method],
      );
      expect(kept).toEqual([]);
    });

    it('a production session (one opened before the rule): its page and resume are 403, it never settles anonymously', async () => {
      const p = (await client.purchase(PIX)).body;
      const sid: string = p.actionRequired.sessionId;
      await paymentsQuery(stack, `UPDATE payment_sessions SET environment = 'production' WHERE id = $1`, [sid]);
      expectError(await stack.http('GET', `/v1/apm/${sid}`), 403, 'AUTH_INSUFFICIENT_SCOPE', 'sessionId');
      const poll = await stack.http('POST', '/v1/payment/resume', { body: { sessionId: sid } });
      expectError(poll, 403, 'AUTH_INSUFFICIENT_SCOPE', 'sessionId');
      expect((await client.get(p.id)).body.status).toBe('pending_action');
      await paymentsQuery(stack, `UPDATE payment_sessions SET environment = 'sandbox' WHERE id = $1`, [sid]);
      // A sandbox one is unchanged: its page shows, and it settles.
      const q = (await client.purchase(PIX)).body;
      expect((await fetch(`${stack.url}/v1/apm/${q.actionRequired.sessionId}`)).status).toBe(200);
      expect((await settle(q.id, 'paid')).body.status).toBe('captured');
    });
  });
});
