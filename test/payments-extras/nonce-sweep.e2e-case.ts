import { Client } from 'pg';
import { ManualClock } from '@app/clock';
import { FUTURE, PaymentsClient, paymentsQuery, sandboxMerchant, sdkNonce } from '../payments/payments-fixtures';
import { TestStack } from '../support/stack';
import { sleep } from '../support/wait';

const CARD = { cardNumber: '5500005555555559', ...FUTURE, cvv: '987', cardholderName: 'From SDK' };
const MINUTE = 60_000;
const SWEEP_MS = 100;

/** Expired nonces are deleted by the sweeper on real time, with no other nonce traffic to trigger it. */
describe('expired card nonces are swept', () => {
  let stack: TestStack;
  let client: PaymentsClient;
  const clock = new ManualClock();

  beforeAll(async () => {
    stack = await TestStack.start({
      clock,
      gateway: false,
      // A clock advance asks every service with time-driven work.
      services: ['payments', 'payment-links', 'billing'],
      env: { NONCE_SWEEP_MS: String(SWEEP_MS) },
    });
    await stack.startGateway({}, clock);
    client = await sandboxMerchant(stack);
  });
  afterAll(() => stack.stop());

  const nonceFor = async (key: string): Promise<string> => sdkNonce(stack, { key }, CARD);
  const stored = async (nonces: string[]): Promise<string[]> =>
    (
      await paymentsQuery<{ nonce: string }>(stack, 'SELECT nonce FROM card_nonces WHERE nonce = ANY($1)', [nonces])
    ).map((r) => r.nonce);
  /** Several sweep intervals, so a sweep that should have happened has. */
  const sweeps = () => sleep(SWEEP_MS * 6);

  it('deletes a nonce once its 15 minutes are over in real time, even on a sandbox clock a year ahead', async () => {
    const production = (await stack.key([client.merchantCode], 'private', 'production')).key;
    const plain = await nonceFor(client.key);
    const ahead = await sandboxMerchant(stack);
    const moved = await stack.http('POST', '/v1/sandbox/clock/advance', { key: ahead.key, body: { by: 'P300D' } });
    expect(moved.status).toBe(200);
    const onMovedClock = await nonceFor(ahead.key);
    const prod = await nonceFor(production);
    const all = [plain, onMovedClock, prod];
    // The moved clock's nonce ends 300 days ahead on that clock, 15 minutes ahead in real time.
    const [row] = await paymentsQuery<{ expires_at: Date; real_expires_at: Date }>(
      stack,
      'SELECT expires_at, real_expires_at FROM card_nonces WHERE nonce = $1',
      [onMovedClock],
    );
    expect(row.expires_at.getTime() - row.real_expires_at.getTime()).toBeGreaterThan(299 * 24 * 60 * MINUTE);

    clock.advance(15 * MINUTE - 1000);
    await sweeps();
    expect((await stored(all)).sort()).toEqual([...all].sort());

    clock.advance(1000);
    await sweeps();
    expect(await stored(all)).toEqual([]);
  });

  it('skips a nonce a payment holds (SKIP LOCKED), and deletes it once released', async () => {
    const held = await nonceFor(client.key);
    const free = await nonceFor(client.key);
    const db = new Client({ connectionString: stack.env.PAYMENTS_DATABASE_URL });
    await db.connect();
    try {
      await db.query('BEGIN');
      await db.query('SELECT 1 FROM card_nonces WHERE nonce = $1 FOR UPDATE', [held]);
      clock.advance(15 * MINUTE);
      await sweeps();
      expect(await stored([held, free])).toEqual([held]);
      await db.query('ROLLBACK');
    } finally {
      await db.end();
    }
    await sweeps();
    expect(await stored([held, free])).toEqual([]);
  });

  it('a nonce still in its life is kept and pays', async () => {
    const nonce = await nonceFor(client.key);
    clock.advance(10 * MINUTE);
    await sweeps();
    expect(await stored([nonce])).toEqual([nonce]);
    expect((await client.purchase({ card: { nonceData: { nonce } } })).body.status).toBe('captured');
  });
});
