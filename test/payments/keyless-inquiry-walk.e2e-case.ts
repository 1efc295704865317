import { TestStack } from '../support/stack';
import { expectError, PaymentsClient, paymentsQuery, sandboxMerchant, uid } from './payments-fixtures';

/**
 * #45 item 3: the keyless inquiry cannot be walked or shadowed. Codes are unique per environment across
 * merchants; the answer is limited per address, per code and in all; production can turn it off.
 */
describe('keyless inquiry: no shadowing, limits per code and in all, production switch', () => {
  let stack: TestStack;
  let m: PaymentsClient;
  /** A production payment, made before any test starts and stops a gateway of its own (see the last test). */
  let productionCode: string;

  beforeAll(async () => {
    [stack, m] = await TestStack.startWith(sandboxMerchant);
    // Passport keeps one bearer strategy per process: a second gateway started and stopped in this process
    // leaves the first one's strategy reading a closed database for a key it has not cached yet. So the
    // production key is made and used here, first.
    await stack.productionSimulator(m.merchantCode);
    const production = new PaymentsClient(
      stack,
      (await stack.key([m.merchantCode], 'private', 'production')).key,
      m.merchantCode,
    );
    const prod = await production.purchase();
    expect(prod.status).toBe(200);
    productionCode = prod.body.paymentCode;
  });
  afterAll(() => stack.stop());

  const keyless = (reference: string, from: string, environment = 'sandbox') =>
    stack.http('GET', `/v1/payment/inquiry/${encodeURIComponent(reference)}`, {
      headers: { 'x-environment': environment },
      from,
    });

  it('a second merchant cannot take a code the first has, by purchase or authorization; the first keeps its answer', async () => {
    const other = await sandboxMerchant(stack);
    const paymentCode = `receipt-${uid()}`;
    const mine = (await m.purchase({ paymentCode })).body;
    expectError(await other.purchase({ paymentCode }), 409, 'DUPLICATE_PAYMENT_CODE', 'paymentCode');
    expectError(await other.authorize({ paymentCode }), 409, 'DUPLICATE_PAYMENT_CODE', 'paymentCode');
    const rows = await paymentsQuery(stack, 'SELECT merchant_code FROM payments WHERE payment_code = $1', [
      paymentCode,
    ]);
    expect(rows).toEqual([{ merchant_code: m.merchantCode }]);
    const found = await keyless(paymentCode, '127.0.45.1');
    expect(found.status).toBe(200);
    expect(found.body.id).toBe(mine.id);
  });

  it('a code two merchants shared before the rule is answered keyless for the first merchant only', async () => {
    // As the migration leaves a deployed database: the later merchant's payment is marked code_shared.
    const other = await sandboxMerchant(stack);
    const paymentCode = `legacy-${uid()}`;
    const first = (await m.purchase({ paymentCode })).body;
    const later = (await other.purchase()).body;
    await paymentsQuery(stack, 'UPDATE payments SET payment_code = $1, code_shared = true WHERE id = $2', [
      paymentCode,
      later.id,
    ]);
    expect((await keyless(paymentCode, '127.0.45.2')).body.id).toBe(first.id);
    const keyed = await stack.http('GET', `/v1/payment/inquiry/${paymentCode}`, { key: other.key });
    expect(keyed.body.id).toBe(later.id);
  });

  it('limits one code across addresses, and every keyless inquiry together, before the lookup', async () => {
    const gateway = await stack.startGateway({
      KEYLESS_INQUIRY_PER_MINUTE: '100',
      KEYLESS_INQUIRY_PER_CODE_PER_MINUTE: '3',
      KEYLESS_INQUIRY_GLOBAL_PER_MINUTE: '12',
    });
    try {
      const p = (await m.purchase()).body;
      // One code from a new address each time: the code's own window runs out (twice the limit and one, so a
      // window turning over mid-burst still overflows).
      const sameCode = [];
      for (let i = 0; i < 7; i++) sameCode.push(await keyless(p.paymentCode, `127.0.46.${i + 1}`));
      expect(sameCode.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(3);
      const refused = sameCode.find((r) => r.status === 429);
      expect(refused).toBeDefined();
      expectError(refused!, 429, 'RATE_LIMITED');
      expect(refused!.body.error.message).toMatch(/for this payment/);

      // Guessing codes from ever new addresses: the global window runs out too.
      const walk = [];
      for (let i = 0; i < 25; i++) walk.push(await keyless(`guess-${uid()}`, `127.0.47.${i + 1}`));
      expect(walk.some((r) => r.status === 404)).toBe(true);
      const over = walk.find((r) => r.status === 429);
      expect(over).toBeDefined();
      expect(over!.body.error.message).toMatch(/^Too many inquiries without a key;/);
      // A key is never counted.
      const keyed = await stack.http('GET', `/v1/payment/inquiry/${p.paymentCode}`, { key: m.key });
      expect(keyed.status).toBe(200);
    } finally {
      await stack.stopGateway(gateway);
    }
  });

  it('KEYLESS_INQUIRY_PRODUCTION=false: production answers 401 without a key, the sandbox goes on', async () => {
    const p = (await m.purchase()).body;
    const gateway = await stack.startGateway({ KEYLESS_INQUIRY_PRODUCTION: 'false' });
    try {
      expectError(await keyless(`any-${uid()}`, '127.0.48.1', 'production'), 401, 'AUTH_MISSING');
      expectError(await keyless(productionCode, '127.0.48.1', 'production'), 401, 'AUTH_MISSING');
      expect((await keyless(p.paymentCode, '127.0.48.1')).body.id).toBe(p.id);
    } finally {
      await stack.stopGateway(gateway);
    }
  });
});
