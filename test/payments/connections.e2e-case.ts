import { randomBytes, randomUUID } from 'node:crypto';
import { Metrics } from '@app/observability';
import { TestStack } from '../support/stack';
import { expectError, PaymentsClient, paymentsQuery, sandboxMerchant, uid } from './payments-fixtures';

const K1 = randomBytes(32).toString('base64');
const K2 = randomBytes(32).toString('base64');

const ADYEN = {
  apiKey: 'AQEyhmfxK4_test_api_key_0000_x9Qa',
  merchantAccount: 'AcmeECOM',
  hmacKey: '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056',
};

const adyen = (o: Record<string, unknown> = {}) => ({
  connectionCode: `adyen-${uid()}`,
  connectionName: 'Adyen EU',
  acquirer: 'adyen',
  environment: 'production',
  currencies: ['EUR'],
  methods: ['card'],
  priority: 10,
  credentials: ADYEN,
  ...o,
});

/**
 * Production is never simulated (docs/connectors.md), connections to real providers take credentials that never come
 * back out and rotate, and each connection shows its health.
 */
describe('connections: production, credentials, health', () => {
  let stack: TestStack;
  let m: PaymentsClient;
  let production: PaymentsClient;

  beforeAll(async () => {
    stack = await TestStack.start({ env: { CONNECTION_CREDENTIAL_KEYS: `k1:${K1}` } });
    m = await sandboxMerchant(stack);
    production = new PaymentsClient(
      stack,
      (await stack.key([m.merchantCode], 'private', 'production')).key,
      m.merchantCode,
    );
  });
  afterAll(() => stack.stop());

  const add = (body: Record<string, unknown>, merchantCode = m.merchantCode) =>
    stack.admin('POST', `/merchants/${merchantCode}/connections`, body);
  const list = (environment: string, merchantCode = m.merchantCode) =>
    stack.admin('GET', `/merchants/${merchantCode}/connections?environment=${environment}`);

  describe('production is never simulated', () => {
    it('a production payment with no production connection is 422 NO_CONNECTION, and nothing is reserved', async () => {
      const key = randomUUID();
      const orderCode = `order-${uid()}`;
      const r = await production.purchase({ orderCode }, key);
      expectError(r, 422, 'NO_CONNECTION', 'amount.currency');
      expect(r.body.error.message).toBe(
        'No production connection accepts card payments in USD: an operator adds one through the admin connections route',
      );
      const rows = await paymentsQuery(stack, 'SELECT id FROM payments WHERE merchant_code = $1 AND environment = $2', [
        m.merchantCode,
        'production',
      ]);
      expect(rows).toEqual([]);
      // The key and the order code are free: once a connection exists, the same request goes through.
      await stack.productionSimulator(m.merchantCode);
      const again = await production.purchase({ orderCode }, key);
      expect(again.body).toMatchObject({ status: 'captured', connectionCode: 'simulator' });
    });

    it('the simulator as a production connection needs allowSimulator: true', async () => {
      const other = await stack.merchant();
      const body = {
        connectionCode: 'sim',
        connectionName: 'Simulator',
        acquirer: 'sandbox',
        environment: 'production',
        currencies: [],
        methods: [],
        priority: 1,
      };
      expectError(await add(body, other), 400, 'VALIDATION_FAILED', 'allowSimulator');
      expectError(await add({ ...body, allowSimulator: 'yes' }, other), 400, 'VALIDATION_FAILED', 'allowSimulator');
      expect((await list('production', other)).body).toEqual([]);
      expect((await add({ ...body, allowSimulator: true }, other)).status).toBe(201);
      expect((await list('production', other)).body).toMatchObject([{ connectionCode: 'sim', acquirer: 'sandbox' }]);
    });
  });

  describe('credentials', () => {
    it('a real provider needs its credentials; they never come back out, only their last four', async () => {
      const noHmac = adyen({ credentials: { apiKey: ADYEN.apiKey, merchantAccount: ADYEN.merchantAccount } });
      expectError(await add(noHmac), 400, 'VALIDATION_FAILED', 'credentials.hmacKey');
      expectError(await add(adyen({ credentials: undefined })), 400, 'VALIDATION_FAILED', 'credentials');
      expectError(
        await add(adyen({ acquirer: 'stripe', credentials: { apiKey: 'sk_test_51abcdef' } })),
        400,
        'VALIDATION_FAILED',
        'credentials.webhookSecret',
      );
      expectError(
        await add(adyen({ credentials: { ...ADYEN, hmacKey: 'not hex' } })),
        400,
        'VALIDATION_FAILED',
        'credentials.hmacKey',
      );

      const body = adyen({ endpoint: 'https://checkout-live.example.com/checkout' });
      const created = await add(body);
      expect(created.status).toBe(201);
      const text = JSON.stringify(created.body);
      for (const secret of [ADYEN.apiKey, ADYEN.hmacKey]) expect(text).not.toContain(secret);
      expect(created.body).toMatchObject({
        connectionCode: body.connectionCode,
        acquirer: 'adyen',
        environment: 'production',
        endpoint: 'https://checkout-live.example.com/checkout',
        credentials: {
          apiKeyLast4: 'x9Qa',
          merchantAccountLast4: 'ECOM',
          hmacKeyLast4: 'A056',
          keyId: 'k1',
          updatedAt: expect.any(String),
        },
        health: { circuit: 'closed', recentCalls: 0 },
      });
      expect(created.body.credentials.apiKey).toBeUndefined();
      expect(JSON.stringify((await list('production')).body)).not.toContain(ADYEN.apiKey);

      const [stored] = await paymentsQuery<Record<string, unknown>>(
        stack,
        'SELECT * FROM connections WHERE merchant_code = $1 AND connection_code = $2',
        [m.merchantCode, body.connectionCode],
      );
      const raw = JSON.stringify(stored) + (stored.credentials_blob as Buffer).toString('latin1');
      for (const secret of Object.values(ADYEN)) expect(raw).not.toContain(secret);
      expect(stored.credentials_key_id).toBe('k1');
    });

    it('never logs the credentials', async () => {
      await add(adyen({ credentials: { ...ADYEN, hmacKey: 'zz' } }));
      for (const app of ['gateway', 'payments']) {
        const text = stack.log(app).text();
        for (const secret of Object.values(ADYEN)) expect([app, text.includes(secret)]).toEqual([app, false]);
      }
    });

    it('a replacement without credentials keeps them; with credentials replaces them all', async () => {
      const body = adyen();
      const first = (await add(body)).body;
      const kept = await add({ ...body, credentials: undefined, priority: 20 });
      expect(kept.status).toBe(200);
      expect(kept.body).toMatchObject({ priority: 20, credentials: first.credentials });
      const replaced = await add({ ...body, credentials: { ...ADYEN, apiKey: 'AQEyhmfxK4_rotated_key_00_Zz9b' } });
      expect(replaced.status).toBe(200);
      expect(replaced.body.credentials).toMatchObject({ apiKeyLast4: 'Zz9b', hmacKeyLast4: 'A056' });
      // Another acquirer under the same code starts from nothing: its own credentials are required.
      expectError(await add({ ...body, acquirer: 'stripe', credentials: undefined }), 400, 'VALIDATION_FAILED');
      // Back to the simulator: the credentials go.
      const simulator = await add({ ...body, acquirer: 'sandbox', credentials: undefined, allowSimulator: true });
      expect(simulator.status).toBe(200);
      expect(simulator.body.credentials).toBeUndefined();
    });

    it('endpoint: https, or http to a loopback double; the simulator takes none and no credentials', async () => {
      expectError(await add(adyen({ endpoint: 'http://checkout.example.com' })), 400, 'VALIDATION_FAILED', 'endpoint');
      expectError(await add(adyen({ endpoint: 'not a url' })), 400, 'VALIDATION_FAILED', 'endpoint');
      expect((await add(adyen({ endpoint: 'http://127.0.0.1:4555' }))).status).toBe(201);
      const sim = { ...adyen({ acquirer: 'sandbox', environment: 'sandbox' }), credentials: undefined };
      expectError(await add({ ...sim, endpoint: 'https://127.0.0.1:1' }), 400, 'VALIDATION_FAILED', 'endpoint');
      expectError(await add({ ...sim, credentials: ADYEN }), 400, 'VALIDATION_FAILED', 'credentials');
    });

    it('rotation: with a new first key, every row is re-sealed under it and still opens', async () => {
      const body = adyen();
      await add(body);
      await stack.stopService('payments');
      await stack.startService('payments', { CONNECTION_CREDENTIAL_KEYS: `k2:${K2},k1:${K1}` });
      const keyIds = async () =>
        (
          await paymentsQuery<{ id: string }>(
            stack,
            'SELECT DISTINCT credentials_key_id AS id FROM connections WHERE credentials_key_id IS NOT NULL',
          )
        ).map((r) => r.id);
      // The sweep runs at start, then every CONNECTION_REKEY_SWEEP_MS.
      for (let i = 0; i < 50 && (await keyIds()).includes('k1'); i++) await new Promise((r) => setTimeout(r, 100));
      expect(await keyIds()).toEqual(['k2']);
      const listed = (await list('production')).body.find(
        (c: { connectionCode: string }) => c.connectionCode === body.connectionCode,
      );
      expect(listed.credentials).toMatchObject({ keyId: 'k2', apiKeyLast4: 'x9Qa' });
      // Opens under the new key only: the old one can leave the list.
      await stack.stopService('payments');
      await stack.startService('payments', { CONNECTION_CREDENTIAL_KEYS: `k2:${K2}` });
      const replaced = await add({ ...body, credentials: undefined, priority: 30 });
      expect(replaced.body.credentials).toMatchObject({ keyId: 'k2' });
    });
  });

  describe('health', () => {
    it('each connection shows its last success, error rate and circuit after payments went through it', async () => {
      const before = new Date().toISOString();
      expect((await m.purchase()).body.status).toBe('captured');
      expect((await m.purchase()).body.status).toBe('captured');
      const [sandbox] = (await list('sandbox')).body;
      expect(sandbox.connectionCode).toBe('sandbox');
      expect(sandbox.health).toMatchObject({ circuit: 'closed', lastFailureAt: null, errorRate: 0 });
      expect(sandbox.health.recentCalls).toBeGreaterThanOrEqual(2);
      expect(sandbox.health.lastSuccessAt >= before).toBe(true);
    });

    it('the connector calls are counted by connector in the metrics', async () => {
      const text = await stack.services.get('payments')![0].get(Metrics).text();
      expect(text).toMatch(
        /payments_connector_calls_total\{[^}]*connector="sandbox"[^}]*outcome="answered"[^}]*\} \d+/,
      );
      expect(text).toMatch(/payments_connector_call_duration_seconds_count\{[^}]*connector="sandbox"/);
    });
  });
});
