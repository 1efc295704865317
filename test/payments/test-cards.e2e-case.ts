import { TestStack } from '../support/stack';
import { cardData, PaymentsClient, sandboxMerchant, usd } from './payments-fixtures';

/** The sandbox test cards (apps/payments/src/connector/sandbox-cards.ts), through the whole stack. */
describe('sandbox test cards', () => {
  let stack: TestStack;
  let m: PaymentsClient;

  beforeAll(async () => ([stack, m] = await TestStack.startWith(sandboxMerchant)));
  afterAll(() => stack.stop());

  it.each([
    ['4111111111111111', 'visa', '411111****1111'],
    ['5500005555555559', 'mastercard', '550000****5559'],
    ['374251018720955', 'amex', '374251****0955'],
    ['6011111111111117', 'discover', '601111****1117'],
    ['3530111333300000', 'jcb', '353011****0000'],
  ])('%s is approved as %s', async (cardNumber, brand, masked) => {
    const r = await m.purchase({ card: cardData(cardNumber, { cvv: brand === 'amex' ? '1234' : '123' }) });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      status: 'captured',
      autorizationCode: expect.any(String),
      card: { cardData: { brand, cardNumber: masked, type: 'credit' } },
    });
    expect(r.body.refusalCode).toBeUndefined();
  });

  it.each([
    ['4000000000000002', '5', 'Do not honor', 'retry', '05'],
    ['4000000000009995', '51', 'Insufficient funds', 'switch_method', '51'],
    ['4000000000000069', '54', 'Expired card', 'switch_method', '54'],
    ['4000000000000127', '82', 'CVV failure', 'switch_method', '82'],
    ['4000000000009235', '59', 'Suspected fraud', 'terminal', '59'],
    ['4000000000001341', '65', 'Activity count limit exceeded', 'switch_method', '65'],
  ])('%s is declined %s %s (%s) with a 200', async (cardNumber, reasonCode, reason, recoveryAction, original) => {
    for (const r of [
      await m.purchase({ card: cardData(cardNumber) }),
      await m.authorize({ card: cardData(cardNumber) }),
    ]) {
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({
        status: 'declined',
        amountCaptured: usd(0),
        refusalCode: {
          reasonCode,
          reason,
          recoveryAction,
          originalReasonCode: original,
          originalReason: expect.any(String),
        },
        card: { networkTransactionId: null },
      });
      expect(r.body.autorizationCode).toBeUndefined();
    }
  });

  it('4000000000000119 fails with a processing error and no refusalCode', async () => {
    const r = await m.purchase({ card: cardData('4000000000000119') });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('failed');
    expect(r.body.refusalCode).toBeUndefined();
    expect(r.body.autorizationCode).toBeUndefined();
  });

  it('4000003220000000 passes 3DS frictionless: approved without a challenge', async () => {
    const r = await m.purchase({ card: cardData('4000003220000000') });
    expect(r.body).toMatchObject({ status: 'captured' });
    expect(r.body.actionRequired).toBeUndefined();
  });

  it.each(['4000002500003155', '4000000000003055'])('%s needs a 3DS challenge: pending_3ds', async (cardNumber) => {
    const purchase = await m.purchase({ card: cardData(cardNumber) });
    expect(purchase.status).toBe(200);
    expect(purchase.body).toMatchObject({ status: 'pending_3ds', amountCaptured: usd(0) });
    expect((await m.authorize({ card: cardData(cardNumber) })).body.status).toBe('pending_3ds');
    expect((await m.capture(purchase.body.id, 100)).body.error.code).toBe('INVALID_STATE');
  });

  describe.each([
    ['4000000000000341', '51', 'Insufficient funds', 'switch_method'],
    ['4000000000004954', '59', 'Suspected fraud', 'terminal'],
  ])('%s (declines merchant-initiated charges)', (cardNumber, reasonCode, reason, recoveryAction) => {
    it('is approved while the cardholder is present, verification included', async () => {
      expect((await m.purchase({ card: cardData(cardNumber) })).body.status).toBe('captured');
      const cit = { ...cardData(cardNumber), cardOnFile: { type: 'recurring', initiator: 'cardholder' } };
      expect((await m.purchase({ card: cit })).body.status).toBe('captured');
      expect((await m.authorize({ card: cardData(cardNumber), amount: usd(0) })).body.status).toBe('authorized');
    });

    it.each(['recurring', 'unscheduled', 'installment'])(
      'is declined on a merchant-initiated %s charge',
      async (type) => {
        const mit = { ...cardData(cardNumber, { cvv: undefined }), cardOnFile: { type, initiator: 'merchant' } };
        const r = await m.purchase({ card: mit });
        expect(r.body).toMatchObject({ status: 'declined', refusalCode: { reasonCode, reason, recoveryAction } });
      },
    );
  });
});
