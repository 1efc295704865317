import { TestStack } from '../support/stack';
import {
  cardData,
  expectError,
  FUTURE,
  PaymentsClient,
  paymentsQuery,
  sandboxMerchant,
  VISA,
} from './payments-fixtures';

/** What the provider's plugins send as a card's billing address. */
const PLUGIN_ADDRESS = {
  address1: '1 Main St',
  address2: 'Suite 5',
  city: 'Austin',
  state: 'TX',
  postalCode: '78701',
  countryCode: 'US',
};
/** The same address under its own names, as it is stored. */
const STORED = {
  line1: '1 Main St',
  line2: 'Suite 5',
  city: 'Austin',
  state: 'TX',
  postalCode: '78701',
  country: 'US',
};

/**
 * Every address object accepts `address1`, `address2` and `countryCode` as `line1`, `line2` and `country`: not
 * ignored, stored under the API's own names; both spellings with different values are a 400 naming the field.
 */
describe('address field aliases', () => {
  let stack: TestStack;
  let m: PaymentsClient;

  beforeAll(async () => ([stack, m] = await TestStack.startWith(sandboxMerchant, { services: ['payments'] })));
  afterAll(() => stack.stop());

  const storedAddress = async (paymentId: string) =>
    (
      await paymentsQuery<{ card_address: unknown }>(stack, 'SELECT card_address FROM payments WHERE id = $1', [
        paymentId,
      ])
    )[0]?.card_address;
  const nonceFor = async (card: Record<string, unknown>): Promise<string> => {
    const token = (await stack.http('POST', '/v1/sdk/session', { key: m.key, body: {} })).body.clientToken;
    const r = await stack.http('POST', '/v1/sdk/nonce', { key: token, body: { cardData: card } });
    expect(r.status).toBe(201);
    expect(r.headers.get('x-ignored-fields')).toBeNull();
    return r.body.nonce;
  };

  it.each(['purchase', 'authorize'] as const)(
    '%s with cardData.cardAddress: stored under its own names',
    async (op) => {
      const r = await m[op]({ card: cardData(VISA, { cardAddress: PLUGIN_ADDRESS }) });
      expect(r.status).toBe(200);
      expect(r.headers.get('x-ignored-fields')).toBeNull();
      expect(await storedAddress(r.body.id)).toEqual(STORED);
      expect(JSON.stringify(r.body)).not.toMatch(/address1|countryCode/);
    },
  );

  it('nonceData.cardAddress, and the address collected with the nonce when the payment gives none', async () => {
    const card = { cardNumber: VISA, ...FUTURE, cvv: '123' };
    const own = await m.purchase({ card: { nonceData: { nonce: await nonceFor(card), cardAddress: PLUGIN_ADDRESS } } });
    expect(own.headers.get('x-ignored-fields')).toBeNull();
    expect(await storedAddress(own.body.id)).toEqual(STORED);

    const collected = await m.purchase({
      card: {
        nonceData: { nonce: await nonceFor({ ...card, cardAddress: { ...PLUGIN_ADDRESS, address2: 'Unit 9' } }) },
      },
    });
    expect(collected.body.status).toBe('captured');
    expect(await storedAddress(collected.body.id)).toEqual({ ...STORED, line2: 'Unit 9' });
  });

  it('tokenData.cardAddress', async () => {
    const tokenized = await m.purchase({ card: cardData(VISA, { tokenize: true }), shopper: { id: 'alias-shopper' } });
    const r = await m.purchase({
      card: { tokenData: { token: tokenized.body.token.token, cardAddress: PLUGIN_ADDRESS } },
    });
    expect(r.body.status).toBe('captured');
    expect(r.headers.get('x-ignored-fields')).toBeNull();
    expect(await storedAddress(r.body.id)).toEqual(STORED);
  });

  it('both spellings: the same value is accepted, different values are 400 naming the field', async () => {
    const same = await m.purchase({ card: cardData(VISA, { cardAddress: { ...PLUGIN_ADDRESS, line1: '1 Main St' } }) });
    expect(same.status).toBe(200);
    expect(await storedAddress(same.body.id)).toEqual(STORED);

    const cases = [
      [{ line1: '2 Other Rd' }, 'line1'],
      [{ line2: 'Suite 6' }, 'line2'],
      [{ country: 'BR' }, 'country'],
    ] as const;
    for (const [extra, field] of cases) {
      const cardAddress = { ...PLUGIN_ADDRESS, ...extra };
      expectError(
        await m.purchase({ card: cardData(VISA, { cardAddress }) }),
        400,
        'VALIDATION_FAILED',
        `card.cardData.cardAddress.${field}`,
      );
      expectError(
        await m.authorize({ card: { tokenData: { token: 'vt_x', cardAddress } } }),
        400,
        'VALIDATION_FAILED',
        `card.tokenData.cardAddress.${field}`,
      );
    }
    // A subscription's card is validated the same way.
    expectError(
      await stack.http('POST', '/v1/subscription', {
        key: m.key,
        body: {
          merchantCode: m.merchantCode,
          card: { nonceData: { nonce: 'n', cardAddress: { address1: 'a', line1: 'b' } } },
        },
      }),
      400,
      'VALIDATION_FAILED',
      'card.nonceData.cardAddress.line1',
    );
  });

  it('an alias is validated as its field: countryCode must be ISO 3166-1 alpha-2', async () => {
    expectError(
      await m.purchase({ card: cardData(VISA, { cardAddress: { countryCode: 'USA' } }) }),
      400,
      'VALIDATION_FAILED',
      'card.cardData.cardAddress.country',
    );
  });
});
