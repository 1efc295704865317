import { randomUUID } from 'node:crypto';
import { cardData } from '../payments/payments-fixtures';
import { AppProcess, ensureBuild, ProcessSuite } from '../support/processes';
import { queryRows } from '../support/db';
import { sleep } from '../support/wait';
import { call, sandboxKey } from './drain-helpers';

jest.setTimeout(300_000);

/**
 * The billing process is SIGKILLed between a renewal's charge and its record (a real process, killed by the
 * fault hook right after payments answered). A new billing process takes the step over once the lease runs
 * out and repeats the call with the same Idempotency-Key: one payment, one paid invoice.
 */
describe('billing killed between a renewal charge and its record', () => {
  let suite: ProcessSuite;
  let gateway: AppProcess;

  beforeAll(async () => {
    ensureBuild();
    suite = await ProcessSuite.start({
      apps: ['gateway', 'payments', 'payment-links', 'billing'],
      env: { RENEWAL_POLL_MS: '0', RENEWAL_LEASE_MS: '1000' },
    });
    gateway = await suite.startApp('gateway');
    await suite.startApp('payments');
    // A clock advance asks every service with time-driven work.
    await suite.startApp('payment-links');
  });
  afterAll(() => suite?.stop());

  it('one payment, one paid invoice after a restart', async () => {
    const doomed = await suite.startApp('billing', { faults: { killAfterCharge: true } });
    const merchant = await sandboxKey(gateway);
    const api = (method: string, path: string, body?: unknown, timeoutMs?: number) =>
      call(gateway.url, method, path, {
        key: merchant.key,
        body,
        headers: method === 'POST' ? { 'idempotency-key': randomUUID() } : {},
        timeoutMs,
      });
    expect((await api('POST', '/v1/sandbox/clock/advance', { to: '2028-01-05T00:00:00Z' })).status).toBe(200);
    const plan = await api('POST', '/v1/subscription/plan', {
      name: 'Pro',
      interval: 'month',
      amount: 2500,
      currency: 'USD',
    });
    const s = await api('POST', '/v1/subscription', {
      planId: plan.body.id,
      customerEmail: 'jane@example.com',
      card: cardData(),
    });
    expect(s.status).toBe(201);

    // The renewal is charged, then billing dies before recording it: the advance gets no answer.
    const first = api('POST', '/v1/sandbox/clock/advance', { to: '2028-02-05T01:00:00Z' }, 5_000);
    expect((await doomed.ended).exit).toBe('SIGKILL');
    expect((await first).status ?? 0).not.toBe(200);
    const charges = () =>
      queryRows<{ status: string; value: number }>(
        suite.databaseUrl('payments'),
        `SELECT status, amount_value::int AS value FROM payments WHERE order_code LIKE 'inv\\_%'`,
      );
    expect(await charges()).toEqual([{ status: 'captured', value: 2500 }]);
    const invoices = () =>
      queryRows<{ status: string; attempts: number }>(
        suite.databaseUrl('billing'),
        `SELECT status, payment_attempt_count AS attempts FROM invoices WHERE subscription_id = $1 ORDER BY period_start`,
        [s.body.id],
      );
    expect(await invoices()).toEqual([
      { status: 'paid', attempts: 1 },
      { status: 'open', attempts: 0 },
    ]);

    // Restart: a new billing process, the dead one's lease runs out, the advance runs the step again.
    await suite.startApp('billing', { name: 'billing-2' });
    await sleep(1_200);
    expect((await api('POST', '/v1/sandbox/clock/advance', { to: '2028-02-05T02:00:00Z' }, 60_000)).status).toBe(200);
    expect(await charges()).toEqual([{ status: 'captured', value: 2500 }]);
    expect(await invoices()).toEqual([
      { status: 'paid', attempts: 1 },
      { status: 'paid', attempts: 1 },
    ]);
    const sub = await api('GET', `/v1/subscription/${s.body.id}?merchantCode=${merchant.merchantCode}`);
    expect(sub.body).toMatchObject({ status: 'active', cyclesCompleted: 2 });
  });
});
