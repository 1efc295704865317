import { randomUUID } from 'node:crypto';
import { CallerContext } from '@app/contracts';
import { CardCheckService } from '../../apps/payments/src/vault/card-check.service';
import {
  cardData,
  expectError,
  PaymentsClient,
  paymentsQuery,
  sandboxMerchant,
  uid,
} from '../payments/payments-fixtures';
import { TestStack } from '../support/stack';

const brl = (value: number) => ({ currency: 'BRL', value, exponent: 2 });
const NEW_NUMBER_CARD = '4000000000004301';

/**
 * #45 item 9: simulated behaviour acts only on payments and cards of a simulator connection (acquirer
 * `sandbox`), checked where it acts. A payment or card of a real provider is made here by recording another
 * acquirer on it, as a provider connection would.
 */
describe('nothing simulated acts on a real provider’s payment or card', () => {
  let stack: TestStack;
  let m: PaymentsClient;
  let production: PaymentsClient;

  beforeAll(async () => {
    [stack, m] = await TestStack.startWith(sandboxMerchant);
    // A production connection to the simulator, created explicitly (as the platform's own tests may, outside
    // NODE_ENV=production).
    await stack.productionSimulator(m.merchantCode);
    production = new PaymentsClient(
      stack,
      (await stack.key([m.merchantCode], 'private', 'production')).key,
      m.merchantCode,
    );
  });
  afterAll(() => stack.stop());

  const asRealProvider = (paymentId: string) =>
    paymentsQuery(stack, `UPDATE payments SET acquirer = 'adyen' WHERE id = $1`, [paymentId]);

  /** A card vaulted by a purchase of `client`, expiring next year (the check looks far beyond it). */
  async function vaulted(client: PaymentsClient) {
    const expiryYear = String(new Date().getUTCFullYear() + 1);
    const paid = await client.purchase({
      card: cardData(NEW_NUMBER_CARD, { expiryMonth: '06', expiryYear, tokenize: true }),
      shopper: { id: `shopper-${uid()}`, email: 'ada@example.com', name: 'Ada Lovelace' },
    });
    expect(paid.status).toBe(200);
    expect(paid.body.acquirer ?? 'sandbox').toBe('sandbox');
    return { paymentId: paid.body.id as string, token: paid.body.token.token as string, expiryYear };
  }

  const check = (client: PaymentsClient, environment: 'sandbox' | 'production', token: string) => {
    const ctx: CallerContext = { requestId: randomUUID(), merchantCode: client.merchantCode, environment };
    const payments = stack.services.get('payments')![0];
    return payments.get(CardCheckService).check(ctx, token, new Date(Date.UTC(2100, 0, 1)));
  };
  const stored = async (token: string) =>
    (
      await paymentsQuery<{ last4: string; expiry_year: string; acquirer: string | null }>(
        stack,
        'SELECT last4, expiry_year, acquirer FROM stored_cards WHERE token = $1',
        [token],
      )
    )[0];

  it('the account updater: a production card of the simulator connection is updated; a real provider’s is left alone', async () => {
    const simulator = await vaulted(production);
    expect((await stored(simulator.token)).acquirer).toBe('sandbox');
    expect((await check(production, 'production', simulator.token)).result).toBe('new_number');
    expect((await stored(simulator.token)).last4).toBe('4242');

    const real = await vaulted(production);
    await paymentsQuery(stack, `UPDATE stored_cards SET acquirer = 'adyen' WHERE token = $1`, [real.token]);
    const answer = await check(production, 'production', real.token);
    expect(answer.result).toBe('no_information');
    expect(await stored(real.token)).toMatchObject({ last4: '4301', expiry_year: real.expiryYear });
  });

  it('the account updater leaves a sandbox card of a real provider alone too', async () => {
    const real = await vaulted(m);
    await paymentsQuery(stack, `UPDATE stored_cards SET acquirer = 'adyen' WHERE token = $1`, [real.token]);
    expect((await check(m, 'sandbox', real.token)).result).toBe('no_information');
    expect(await stored(real.token)).toMatchObject({ last4: '4301', expiry_year: real.expiryYear });
  });

  it('the simulated 3DS challenge (hosted page and sandbox route) refuses a real provider’s payment', async () => {
    const pending = await m.purchase({ card: cardData('4000002500003155') });
    expect(pending.body.status).toBe('pending_3ds');
    const sessionId = pending.body.actionRequired.sessionId as string;
    await asRealProvider(pending.body.id);

    const sandboxRoute = await stack.http('POST', `/v1/sandbox/3ds/${sessionId}`, {
      key: m.key,
      body: { outcome: 'authenticated' },
    });
    expectError(sandboxRoute, 403, 'AUTH_INSUFFICIENT_SCOPE');
    const button = await stack.http('POST', `/v1/3ds/challenge/${sessionId}`, { body: { outcome: 'authenticated' } });
    expectError(button, 403, 'AUTH_INSUFFICIENT_SCOPE');
    const page = await stack.http('GET', `/v1/3ds/challenge/${sessionId}`);
    expect(page.status).toBe(403);
    const [session] = await paymentsQuery<{ status: string }>(
      stack,
      'SELECT status FROM payment_sessions WHERE id = $1',
      [sessionId],
    );
    expect(session.status).toBe('pending');

    // The simulator's own payment: the same routes act.
    const own = await m.purchase({ card: cardData('4000002500003155') });
    const ok = await stack.http('POST', `/v1/sandbox/3ds/${own.body.actionRequired.sessionId}`, {
      key: m.key,
      body: { outcome: 'authenticated' },
    });
    expect(ok.status).toBe(200);
  });

  it('the sandbox settle route and the APM page refuse a real provider’s APM payment', async () => {
    const pix = {
      paymentMethod: 'pix',
      amount: brl(1050),
      card: undefined,
      apm: { payerDocument: '12345678909' },
    };
    const pending = await m.purchase(pix);
    expect(pending.body.status).toBe('pending_action');
    await asRealProvider(pending.body.id);
    const settle = await stack.http('POST', `/v1/sandbox/payment/${pending.body.id}/settle`, {
      key: m.key,
      body: { outcome: 'paid' },
    });
    expectError(settle, 403, 'AUTH_INSUFFICIENT_SCOPE');
    expect((await m.get(pending.body.id)).body.status).toBe('pending_action');
    const page = await stack.http('GET', `/v1/apm/${pending.body.actionRequired.sessionId}`);
    expect(page.status).toBe(403);

    const own = await m.purchase(pix);
    const paid = await stack.http('POST', `/v1/sandbox/payment/${own.body.id}/settle`, {
      key: m.key,
      body: { outcome: 'paid' },
    });
    expect(paid.status).toBe(200);
    expect(paid.body.status).toBe('captured');
  });
});
