import { nkeys } from 'nats';
import { randomBytes } from 'node:crypto';
import {
  cardData,
  expectError,
  FUTURE,
  PaymentsClient,
  paymentsQuery,
  sandboxMerchant,
  usd,
  VISA,
} from '../payments/payments-fixtures';
import { SandboxAcquirerConnector } from '../../apps/payments/src/connector/sandbox-acquirer.connector';
import { TestStack } from '../support/stack';

const K1 = randomBytes(32).toString('base64');
const K2 = randomBytes(32).toString('base64');
const MIT_DECLINED = '4000000000000341';
const shopper = { id: 'shopper-1', email: 'jane@example.com' };

describe('the card vault: tokenize, charge a token, rotate keys', () => {
  let stack: TestStack;
  let client: PaymentsClient;

  beforeAll(
    async () => ([stack, client] = await TestStack.startWith(sandboxMerchant, { env: { VAULT_KEYS: `k1:${K1}` } })),
  );
  afterAll(() => stack.stop());

  const tokenize = async (cardNumber = VISA, o: Record<string, unknown> = {}) => {
    const r = await client.purchase({ card: cardData(cardNumber, { tokenize: true }), shopper, ...o });
    expect(r.status).toBe(200);
    return r.body;
  };
  const charge = (token: string, o: Record<string, unknown> = {}, c = client) =>
    c.purchase({ card: { tokenData: { token, cvv: '321' }, ...o } });
  const stored = (token: string) => paymentsQuery(stack, 'SELECT * FROM stored_cards WHERE token = $1', [token]);

  it('tokenize without shopper.id is 400 naming shopper.id', async () => {
    expectError(
      await client.purchase({ card: cardData(VISA, { tokenize: true }) }),
      400,
      'VALIDATION_FAILED',
      'shopper.id',
    );
  });

  it('an approved tokenizing payment answers a vt_ token; the PAN is sealed, the CVV never stored', async () => {
    const p = await tokenize();
    expect(p.status).toBe('captured');
    expect(p.token).toEqual({
      token: expect.stringMatching(/^vt_[A-Za-z0-9]{32}$/),
      expirationDate: `${FUTURE.expiryYear}-12-31T23:59:59.999Z`,
    });
    const [row] = await stored(p.token.token);
    expect(row).toMatchObject({ key_id: 'k1', bin: '411111', last4: '1111', brand: 'visa', shopper_id: 'shopper-1' });
    expect(row.network_transaction_id).toBe(p.card.networkTransactionId);
    expect(JSON.stringify(row)).not.toContain(VISA);
    expect((row.pan_sealed as Buffer).toString('latin1')).not.toContain(VISA);
    expect(Object.keys(row).some((c) => /cvv|cvc/i.test(c))).toBe(false);
  });

  it('a token charges the stored card of its merchant', async () => {
    const { token } = (await tokenize()).token;
    const r = await charge(token);
    expect(r.body).toMatchObject({
      status: 'captured',
      card: { cardData: { cardNumber: '411111****1111', brand: 'visa' } },
    });
    expect(r.body.token).toBeUndefined();
    const auth = await client.authorize({ card: { tokenData: { token } } });
    expect(auth.body.status).toBe('authorized');
  });

  it('merchant-initiated charges of a token go out as MIT with the stored network ids', async () => {
    const cit = await tokenize(MIT_DECLINED);
    expect(cit.status).toBe('captured');
    const acquirer = stack.services.get('payments')![0].get(SandboxAcquirerConnector);
    const spy = jest.spyOn(acquirer, 'authorize');
    try {
      const mit = await charge(cit.token.token, { cardOnFile: { type: 'recurring', initiator: 'merchant' } });
      expect(mit.body).toMatchObject({ status: 'declined', refusalCode: { reasonCode: '51' } });
      expect(spy.mock.calls[0][1]).toMatchObject({
        initiator: 'merchant',
        networkTransactionId: cit.card.networkTransactionId,
        card: { source: 'tokenData', cardNumber: MIT_DECLINED, cvv: '321' },
      });
    } finally {
      spy.mockRestore();
    }
    const again = await charge(cit.token.token, { cardOnFile: { type: 'unscheduled', initiator: 'cardholder' } });
    expect(again.body.status).toBe('captured');
  });

  it('a token is usable only by its merchant and environment; unknown tokens are 404', async () => {
    const { token } = (await tokenize()).token;
    const other = await sandboxMerchant(stack);
    expectError(await charge(token, {}, other), 404, 'NOT_FOUND', 'card.tokenData.token');
    await stack.productionSimulator(client.merchantCode);
    const prod = new PaymentsClient(
      stack,
      (await stack.key([client.merchantCode], 'private', 'production')).key,
      client.merchantCode,
    );
    expectError(await charge(token, {}, prod), 404, 'NOT_FOUND', 'card.tokenData.token');
    expectError(await charge('vt_doesnotexist'), 404, 'NOT_FOUND', 'card.tokenData.token');
    expectError(await charge('anything'), 404, 'NOT_FOUND', 'card.tokenData.token');
  });

  it('a zero-value verification may tokenize; a declined payment stores nothing', async () => {
    const v = await client.authorize({ amount: usd(0), card: cardData(VISA, { tokenize: true }), shopper });
    expect(v.body).toMatchObject({ status: 'authorized', amount: { value: 0 } });
    expect(v.body.token.token).toMatch(/^vt_/);
    const before = await paymentsQuery(stack, 'SELECT count(*)::int AS n FROM stored_cards');
    const declined = await tokenize('4000000000000002', { connectionCode: undefined });
    expect(declined.status).toBe('declined');
    expect(declined.token).toBeUndefined();
    expect(await paymentsQuery(stack, 'SELECT count(*)::int AS n FROM stored_cards')).toEqual(before);
  });

  it('rotation: a new first key seals new cards; cards sealed under the old key still charge', async () => {
    const old = (await tokenize()).token.token;
    await stack.stopService('payments');
    await stack.startService('payments', { VAULT_KEYS: `k2:${K2},k1:${K1}` });
    expect((await charge(old)).body.status).toBe('captured');
    const fresh = (await tokenize()).token.token;
    expect((await stored(fresh))[0].key_id).toBe('k2');
    expect((await stored(old))[0].key_id).toBe('k1');
    expect((await charge(fresh)).body.status).toBe('captured');
  });

  it('in production the service refuses to start without VAULT_KEYS', async () => {
    // Otherwise a valid production configuration: NATS over TLS with a credential of its own.
    const seed = Buffer.from(nkeys.createUser().getSeed()).toString();
    const production = {
      NODE_ENV: 'production',
      NATS_URL: 'tls://127.0.0.1:4222',
      NATS_NKEY_SEED: seed,
      IDEMPOTENCY_FINGERPRINT_KEY: randomBytes(32).toString('base64'),
    };
    await expect(stack.startService('payments', { ...production, VAULT_KEYS: '' })).rejects.toThrow(
      /VAULT_KEYS is required in production/,
    );
  });
});
