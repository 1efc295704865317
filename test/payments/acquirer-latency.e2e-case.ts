import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { SandboxAcquirerConnector } from '../../apps/payments/src/connector/sandbox-acquirer.connector';
import { TestStack } from '../support/stack';
import { expectError, PaymentsClient, sandboxMerchant, uid, usd } from './payments-fixtures';
import { sleep } from '../support/wait';

const LATENCY_MS = 500;

jest.setTimeout(60_000);

/**
 * Reserve, call, record under a real acquirer's timing (SANDBOX_ACQUIRER_LATENCY_MS = 500): no transaction
 * stays open during the call, so payments in flight do not queue behind each other.
 */
describe('payments under a slow acquirer', () => {
  let stack: TestStack;
  let m: PaymentsClient;
  let db: Client;

  beforeAll(async () => {
    [stack, m] = await TestStack.startWith(sandboxMerchant, {
      env: { SANDBOX_ACQUIRER_LATENCY_MS: String(LATENCY_MS) },
    });
    db = new Client({ connectionString: stack.env.PAYMENTS_DATABASE_URL });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await stack?.stop();
  });

  it('while the call is in flight: a replay is 409 IN_PROGRESS with Retry-After, GET and list do not show it', async () => {
    const key = randomUUID();
    const orderCode = `o-${uid()}`;
    // The acquirer holds this call until the checks below are done (on a loaded machine they can take longer
    // than its 500 ms), so "in flight" is a fact of the test, not a race with the clock.
    const acquirer = stack.services.get('payments')![0].get(SandboxAcquirerConnector);
    let answer!: () => void;
    const held = new Promise<void>((resolve) => (answer = resolve));
    const authorize = acquirer.authorize.bind(acquirer);
    const spy = jest.spyOn(acquirer, 'authorize').mockImplementationOnce(async (connection, request) => {
      await held;
      return authorize(connection, request);
    });
    const first = m.purchase({ orderCode }, key);
    const reservedRow = () =>
      db.query<{ id: string; status: string }>('SELECT id, status FROM payments WHERE order_code = $1', [orderCode]);
    // Reserved (committed) before the acquirer is called: from then on the call is in flight for 500 ms.
    let found = await reservedRow();
    while (!found.rows.length) {
      await sleep(10);
      found = await reservedRow();
    }
    const reserved = found.rows[0];
    expect(reserved.status).toBe('reserved');
    const replay = await m.purchase({ orderCode }, key);
    expectError(replay, 409, 'IDEMPOTENCY_IN_PROGRESS');
    expect(replay.headers.get('retry-after')).toBe('1');
    expectError(await m.get(reserved.id), 404, 'NOT_FOUND');
    const list = await stack.http('GET', `/v1/payment?orderCode=${orderCode}`, { key: m.key });
    expect(list.body).toEqual([]);
    // Another key for the same order waits for nothing and is refused: the reservation holds the order code.
    expectError(await m.purchase({ orderCode }), 409, 'DUPLICATE_ORDER_CODE');
    expect(spy).toHaveBeenCalledTimes(1);
    answer();
    spy.mockRestore();
    const done = await first;
    expect([done.status, done.body.status, done.body.id]).toEqual([200, 'captured', reserved.id]);
    expect((await m.purchase({ orderCode }, key)).body).toEqual(done.body);
    expect((await m.get(reserved.id)).body.status).toBe('captured');
  });

  it('50 purchases in flight: no transaction idles open for more than 50 ms, and they overlap', async () => {
    // Warm: the first requests of a process compile code and prepare statements.
    await Promise.all(Array.from({ length: 50 }, () => m.purchase()));
    const idle: number[] = [];
    let samples = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const r = await db.query<{ ms: number }>(
          `SELECT extract(epoch FROM clock_timestamp() - state_change) * 1000 AS ms FROM pg_stat_activity
           WHERE datname = current_database() AND state = 'idle in transaction'`,
        );
        idle.push(...r.rows.map((row) => Number(row.ms)));
        samples++;
        await sleep(5);
      }
    })();
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: 50 }, () => m.purchase({ amount: usd(1200) })));
    const elapsed = Date.now() - started;
    sampling = false;
    await sampler;
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    expect(answers.every((a) => a.body.status === 'captured')).toBe(true);
    // Serialized on the acquirer they would take 50 × 500 ms; overlapping, a few of those.
    expect(elapsed).toBeLessThan(10 * LATENCY_MS);
    expect(samples).toBeGreaterThan(20);
    expect(Math.max(0, ...idle)).toBeLessThan(50);
  });

  it('concurrent refunds in flight are counted against the captured amount', async () => {
    const p = (await m.purchase({ amount: usd(1000) })).body;
    const answers = await Promise.all(Array.from({ length: 6 }, () => m.refund(p.id, 300)));
    const ok = answers.filter((a) => a.status === 200);
    expect(ok).toHaveLength(3);
    answers.filter((a) => a.status !== 200).forEach((a) => expectError(a, 422, 'AMOUNT_EXCEEDS_AVAILABLE'));
    expect((await m.get(p.id)).body).toMatchObject({ status: 'captured', amountRefunded: usd(900) });
  });

  it('while a capture is in flight, another operation on the payment is 409 INVALID_STATE', async () => {
    const p = (await m.authorize({ amount: usd(1000) })).body;
    const capture = m.capture(p.id, 1000);
    let attempts: unknown[] = [];
    while (!attempts.length) {
      attempts = (await db.query('SELECT id FROM acquirer_attempts WHERE payment_id = $1', [p.id])).rows;
      if (!attempts.length) await sleep(10);
    }
    expectError(await m.operate(p.id, 'cancel'), 409, 'INVALID_STATE');
    expect((await capture).body.status).toBe('captured');
    expect((await m.refund(p.id, 100)).body.status).toBe('refunded');
  });
});
