import { TestStack } from '../support/stack';
import { cardData, expectError, PaymentsClient, paymentsQuery, sandboxMerchant, uid, usd } from './payments-fixtures';

const connection = (o: Record<string, unknown> = {}) => ({
  connectionCode: `c-${uid()}`,
  connectionName: 'Sandbox USD',
  acquirer: 'sandbox',
  environment: 'sandbox',
  currencies: ['USD'],
  methods: ['card'],
  priority: 10,
  ...o,
});

/** Connections (admin API → payments service) and routing: priority, currency, method, pinning, cascade. */
describe('connections and routing', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await TestStack.start();
  });
  afterAll(() => stack.stop());

  const connections = (merchantCode: string, query = '') =>
    stack.admin('GET', `/merchants/${merchantCode}/connections${query}`);
  const addConnection = (merchantCode: string, body: Record<string, unknown>) =>
    stack.admin('POST', `/merchants/${merchantCode}/connections`, body);

  describe('admin routes', () => {
    it('every merchant has a default sandbox-acquirer connection in sandbox, and none in production', async () => {
      const code = await stack.merchant();
      const r = await connections(code);
      expect(r.status).toBe(200);
      expect(r.body).toEqual([
        {
          id: expect.any(String),
          connectionCode: 'sandbox',
          connectionName: 'Sandbox acquirer',
          acquirer: 'sandbox',
          environment: 'sandbox',
          currencies: [],
          methods: [],
          priority: 1000,
          isDefault: true,
          health: {
            circuit: 'closed',
            lastSuccessAt: null,
            lastFailureAt: null,
            lastFailureReason: null,
            errorRate: 0,
            recentCalls: 0,
          },
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
        },
      ]);
      expect((await connections(code, '?environment=production')).body).toEqual([]);
    });

    it('creates a connection (201), replaces one with the same code (200), lists in routing order', async () => {
      const code = await stack.merchant();
      const body = connection({ connectionCode: 'eu', currencies: ['EUR'], priority: 5 });
      const created = await addConnection(code, body);
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ ...body, isDefault: false });
      const replaced = await addConnection(code, { ...body, connectionName: 'Europe', priority: 2000 });
      expect(replaced.status).toBe(200);
      expect(replaced.body).toMatchObject({ connectionName: 'Europe', priority: 2000 });
      const list = (await connections(code, '?environment=sandbox')).body;
      expect(list.map((c: { connectionCode: string }) => c.connectionCode)).toEqual(['sandbox', 'eu']);
    });

    it.each([
      ['an unknown acquirer', { acquirer: 'paypal' }, 'acquirer'],
      ['a bad method', { methods: ['cash'] }, 'methods'],
      ['a bad currency', { currencies: ['usd'] }, 'currencies'],
      ['no environment', { environment: undefined }, 'environment'],
      ['a bad code', { connectionCode: 'has space' }, 'connectionCode'],
      ['a float priority', { priority: 1.5 }, 'priority'],
    ])('400 VALIDATION_FAILED for %s', async (_, override, param) => {
      const code = await stack.merchant();
      expectError(await addConnection(code, connection(override)), 400, 'VALIDATION_FAILED', param);
    });

    it('404 for an unknown merchant; 401 without the admin token', async () => {
      expectError(await addConnection('no-such-merchant', connection()), 404, 'NOT_FOUND', 'merchantCode');
      expectError(await connections('no-such-merchant'), 404, 'NOT_FOUND');
      const r = await stack.http('GET', '/v1/admin/merchants/x/connections', { port: 'internal' });
      expectError(r, 401, 'AUTH_MISSING');
    });
  });

  describe('routing', () => {
    let m: PaymentsClient;
    beforeAll(async () => {
      m = await sandboxMerchant(stack);
      await addConnection(m.merchantCode, connection({ connectionCode: 'eur-1', currencies: ['EUR'], priority: 1 }));
      await addConnection(
        m.merchantCode,
        connection({ connectionCode: 'usd-1', connectionName: 'USD one', priority: 1 }),
      );
      await addConnection(
        m.merchantCode,
        connection({ connectionCode: 'usd-2', connectionName: 'USD two', priority: 2 }),
      );
      await addConnection(
        m.merchantCode,
        connection({ connectionCode: 'pix-1', currencies: ['BRL'], methods: ['pix'] }),
      );
      await addConnection(
        m.merchantCode,
        connection({ connectionCode: 'prod-usd', environment: 'production', priority: 0, allowSimulator: true }),
      );
    });

    it('takes the first connection that accepts the currency and method, by priority', async () => {
      expect((await m.purchase()).body).toMatchObject({ connectionCode: 'usd-1', connectionName: 'USD one' });
      const eur = await m.purchase({ amount: { currency: 'EUR', value: 100, exponent: 2 } });
      expect(eur.body.connectionCode).toBe('eur-1');
      const brl = await m.purchase({ amount: { currency: 'BRL', value: 100, exponent: 2 } });
      expect(brl.body.connectionCode).toBe('sandbox');
    });

    it('pins a connection by connectionCode; an unknown one is 404, an unfit one 400', async () => {
      expect((await m.purchase({ connectionCode: 'usd-2' })).body.connectionCode).toBe('usd-2');
      expect((await m.purchase({ connectionCode: 'sandbox' })).body.connectionCode).toBe('sandbox');
      expectError(await m.purchase({ connectionCode: 'nope' }), 404, 'NOT_FOUND', 'connectionCode');
      expectError(await m.purchase({ connectionCode: 'prod-usd' }), 404, 'NOT_FOUND', 'connectionCode');
      expectError(await m.purchase({ connectionCode: 'eur-1' }), 400, 'VALIDATION_FAILED', 'connectionCode');
    });

    it('cascades once to the next matching connection on a retry decline; the answer names it', async () => {
      const r = await m.purchase({ card: cardData('4000000000000002') });
      expect(r.body).toMatchObject({ status: 'declined', connectionCode: 'usd-2', refusalCode: { reasonCode: '5' } });
      const [row] = await paymentsQuery<{ attempts: unknown }>(stack, 'SELECT attempts FROM payments WHERE id = $1', [
        r.body.id,
      ]);
      expect(row.attempts).toEqual([
        { connectionCode: 'usd-1', outcome: 'declined', reasonCode: '5' },
        { connectionCode: 'usd-2', outcome: 'declined', reasonCode: '5' },
      ]);
    });

    it('does not cascade on other declines, or when pinned', async () => {
      const noRetry = await m.purchase({ card: cardData('4000000000009995') });
      expect(noRetry.body.connectionCode).toBe('usd-1');
      const pinned = await m.purchase({ card: cardData('4000000000000002'), connectionCode: 'usd-1' });
      expect(pinned.body.connectionCode).toBe('usd-1');
      const rows = await paymentsQuery<{ attempts: unknown[] }>(
        stack,
        'SELECT attempts FROM payments WHERE id = ANY($1)',
        [[noRetry.body.id, pinned.body.id]],
      );
      expect(rows.map((r) => r.attempts.length)).toEqual([1, 1]);
    });

    it('connections of one environment never route the other’s payments', async () => {
      const production = new PaymentsClient(
        stack,
        (await stack.key([m.merchantCode], 'private', 'production')).key,
        m.merchantCode,
      );
      expect((await production.purchase()).body.connectionCode).toBe('prod-usd');
      expect((await m.purchase({ amount: usd(5) })).body.connectionCode).toBe('usd-1');
    });

    it('422 NO_CONNECTION when no connection accepts the payment, naming environment, method and currency', async () => {
      const lonely = await sandboxMerchant(stack);
      await addConnection(lonely.merchantCode, connection({ connectionCode: 'sandbox', currencies: ['EUR'] }));
      const r = await lonely.purchase();
      expectError(r, 422, 'NO_CONNECTION', 'amount.currency');
      expect(r.body.error.message).toBe('No sandbox connection accepts card payments in USD');
    });
  });
});
