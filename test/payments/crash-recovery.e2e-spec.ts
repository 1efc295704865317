import { randomUUID } from 'node:crypto';
import { ChildApp } from '../support/child-app';
import { Faults } from '../support/fault-injection';
import { TestStack } from '../support/stack';
import { waitUntil } from '../support/wait';
import { paymentsQuery, sandboxMerchant, PaymentsClient, uid } from './payments-fixtures';

jest.setTimeout(180_000);

/**
 * A payments process killed (SIGKILL) between reserve and record, then started again: its recovery sweep asks
 * the sandbox acquirer (whose ledger is a table of its own) what it did for the request reference, and records
 * that, or releases the reservation when the acquirer never saw the request.
 */
describe('crash recovery of acquirer calls', () => {
  let stack: TestStack;
  let m: PaymentsClient;
  let child: ChildApp | undefined;

  beforeAll(async () => {
    // The gateway here; the payments service as a child process (the gateway waits 3 s for it).
    [stack, m] = await TestStack.startWith(sandboxMerchant, { services: [], env: { RPC_TIMEOUT_MS: '3000' } });
  });
  afterEach(async () => {
    await child?.stop();
    child = undefined;
  });
  afterAll(() => stack.stop());

  const startPayments = async (faults?: Faults): Promise<ChildApp> => {
    const app = ChildApp.start(
      'payments',
      { ...stack.env, LOG_LEVEL: 'info', ACQUIRER_TIMEOUT_MS: '1000', RECOVERY_SWEEP_MS: '200' },
      faults,
    );
    await app.waitFor(/service started/);
    return app;
  };
  const rowsOf = (orderCode: string) =>
    paymentsQuery<{ id: string; status: string }>(stack, 'SELECT id, status FROM payments WHERE order_code = $1', [
      orderCode,
    ]);

  it('killed after the acquirer answered: the sweep records exactly one captured payment', async () => {
    const key = randomUUID();
    const orderCode = `o-${uid()}`;
    child = await startPayments({ crashAt: 'after_acquirer' });
    const lost = await m.purchase({ orderCode }, key);
    expect(lost.status).toBe(504);
    expect(await child.exit()).toBeNull();
    expect(child.killedBySignal).toBe('SIGKILL');
    const [reserved] = await rowsOf(orderCode);
    expect(reserved.status).toBe('reserved');
    const [attempt] = await paymentsQuery<{ request_reference: string }>(
      stack,
      'SELECT request_reference FROM acquirer_attempts WHERE payment_id = $1',
      [reserved.id],
    );
    const ledger = await paymentsQuery(stack, 'SELECT answer FROM sandbox_acquirer_ledger WHERE reference = $1', [
      attempt.request_reference,
    ]);
    expect(ledger).toHaveLength(1);

    child = await startPayments();
    await waitUntil('the sweep resolved the attempt', async () => (await rowsOf(orderCode))[0]?.status !== 'reserved');
    const rows = await rowsOf(orderCode);
    expect(rows).toEqual([{ id: reserved.id, status: 'captured' }]);
    const replay = await m.purchase({ orderCode }, key);
    expect([replay.status, replay.body.id, replay.body.status]).toEqual([200, reserved.id, 'captured']);
    expect((await m.get(reserved.id)).body.status).toBe('captured');
    const events = await paymentsQuery(stack, "SELECT type FROM outbox WHERE envelope->'data'->>'id' = $1", [
      reserved.id,
    ]);
    expect(events).toEqual([{ type: 'payment.captured' }]);
    expect(await paymentsQuery(stack, 'SELECT id FROM acquirer_attempts WHERE payment_id = $1', [reserved.id])).toEqual(
      [],
    );
  });

  it('killed before the acquirer call: the sweep releases the order code and the key', async () => {
    const key = randomUUID();
    const orderCode = `o-${uid()}`;
    child = await startPayments({ crashAt: 'before_acquirer' });
    expect((await m.purchase({ orderCode }, key)).status).toBe(504);
    expect(await child.exit()).toBeNull();
    expect((await rowsOf(orderCode)).map((r) => r.status)).toEqual(['reserved']);

    child = await startPayments();
    await waitUntil('the sweep released the reservation', async () => (await rowsOf(orderCode)).length === 0);
    const again = await m.purchase({ orderCode }, key);
    expect([again.status, again.body.status]).toEqual([200, 'captured']);
    expect(await rowsOf(orderCode)).toEqual([{ id: again.body.id, status: 'captured' }]);
  });
});
