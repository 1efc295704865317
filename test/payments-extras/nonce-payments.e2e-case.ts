import { ManualClock } from '@app/clock';
import {
  expectError,
  FUTURE,
  PaymentsClient,
  paymentsQuery,
  sandboxMerchant,
  sdkNonce,
} from '../payments/payments-fixtures';
import { TestStack } from '../support/stack';

const CARD = { cardNumber: '5500005555555559', ...FUTURE, cvv: '987', cardholderName: 'From SDK' };

describe('paying with an SDK nonce', () => {
  let stack: TestStack;
  let client: PaymentsClient;
  const clock = new ManualClock();

  beforeAll(async () => {
    stack = await TestStack.start({ clock, gateway: false });
    await stack.startGateway({}, clock);
    client = await sandboxMerchant(stack);
  });
  afterAll(() => stack.stop());

  const nonceFor = async (c: PaymentsClient = client, card: Record<string, unknown> = CARD): Promise<string> =>
    sdkNonce(stack, { key: c.key }, card);
  const pay = (nonce: string, o: Record<string, unknown> = {}, c = client) =>
    c.purchase({ card: { nonceData: { nonce, ...o } } });

  it('a nonce pays once, as the card it stands for; used, it is 404', async () => {
    const nonce = await nonceFor();
    const r = await pay(nonce, { cardholderName: 'Override Name' });
    expect(r.body).toMatchObject({
      status: 'captured',
      card: { cardData: { brand: 'mastercard', cardNumber: '550000****5559', expiryYear: FUTURE.expiryYear } },
    });
    expectError(await pay(nonce), 404, 'NOT_FOUND', 'card.nonceData.nonce');
    expect(await paymentsQuery(stack, 'SELECT 1 FROM card_nonces WHERE nonce = $1', [nonce])).toEqual([]);
  });

  it('the nonce can authorize and tokenize (with shopper.id)', async () => {
    const r = await client.authorize({
      card: { nonceData: { nonce: await nonceFor(), tokenize: true } },
      shopper: { id: 'sdk-shopper' },
    });
    expect(r.body.status).toBe('authorized');
    expect(r.body.token.token).toMatch(/^vt_/);
    expectError(
      await client.purchase({ card: { nonceData: { nonce: await nonceFor(), tokenize: true } } }),
      400,
      'VALIDATION_FAILED',
      'shopper.id',
    );
  });

  it('another merchant’s or environment’s nonce is 404 and stays usable by its owner', async () => {
    const nonce = await nonceFor();
    expectError(await pay(nonce, {}, await sandboxMerchant(stack)), 404, 'NOT_FOUND');
    await stack.productionSimulator(client.merchantCode);
    const prod = new PaymentsClient(
      stack,
      (await stack.key([client.merchantCode], 'private', 'production')).key,
      client.merchantCode,
    );
    expectError(await pay(nonce, {}, prod), 404, 'NOT_FOUND');
    expect((await pay(nonce)).body.status).toBe('captured');
  });

  it('two payments racing for one nonce: exactly one gets it', async () => {
    const nonce = await nonceFor();
    const results = await Promise.all([pay(nonce), pay(nonce), pay(nonce)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 404, 404]);
  });

  it('a nonce expires 15 minutes after it was made', async () => {
    const late = await nonceFor();
    const inTime = await nonceFor();
    clock.advance(15 * 60_000 - 1);
    expect((await pay(inTime)).body.status).toBe('captured');
    clock.advance(1);
    expectError(await pay(late), 404, 'NOT_FOUND', 'card.nonceData.nonce');
  });

  it('the nonce table holds the card only sealed, and a declined payment still uses the nonce up', async () => {
    const nonce = await nonceFor(client, { ...CARD, cardNumber: '4000000000009995', cvv: '5555' });
    const [row] = await paymentsQuery(stack, 'SELECT * FROM card_nonces WHERE nonce = $1', [nonce]);
    expect(JSON.stringify(row)).not.toContain('4000000000009995');
    expect(row.card_sealed).toBeInstanceOf(Buffer);
    expect((await pay(nonce)).body).toMatchObject({ status: 'declined', refusalCode: { reasonCode: '51' } });
    expectError(await pay(nonce), 404, 'NOT_FOUND');
  });
});
