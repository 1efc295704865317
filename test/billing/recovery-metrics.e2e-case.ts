import { Metrics } from '@app/observability';
import { TestStack } from '../support/stack';
import { cardData, CARDS } from './billing-fixtures';
import { minute, TimeClient, timeStack } from './renewal-fixtures';

jest.setTimeout(120_000);

/** What dunning recovered, seen: the subscription's dunning state, `invoice.payment_recovered`, the metrics. */
describe('revenue recovery, seen and measured', () => {
  let stack: TestStack;

  beforeAll(async () => (stack = await timeStack()));
  afterAll(() => stack?.stop());

  /** The value of one series of billing's /metrics (0 when absent); every series also has `app="billing"`. */
  const metric = async (series: string): Promise<number> => {
    const text = await stack.services.get('billing')![0].get(Metrics).text();
    const labelled = series.replace(/}$/, ',app="billing"}');
    const line = text.split('\n').find((l) => l.startsWith(`${labelled} `));
    return line ? Number(line.split(' ').pop()) : 0;
  };

  it('a past-due invoice paid by a new card: recovered, by reason and connection, with its amount', async () => {
    const c = await TimeClient.start(stack, '2028-01-10T00:00:00Z');
    const plan = await c.m.plan({ amount: 1700, currency: 'EUR' });
    const s = await c.m.subscription({ planId: plan.id, card: cardData(CARDS.mitInsufficientFunds) });
    const before = {
      started: await metric('billing_dunning_runs_started_total{reason="51"}'),
      recovered: await metric('billing_dunning_recovered_total{reason="51",connection="sandbox"}'),
      amount: await metric('billing_dunning_recovered_amount_total{currency="EUR"}'),
      retries: await metric('billing_dunning_retries_total{connection="sandbox",outcome="declined"}'),
    };
    await c.advance({ to: '2028-02-11T01:00:00Z' });
    const sub = await c.sub(s.id);
    // Why and what next: the last refusal, the next attempt, the connection tried.
    expect(sub.dunning).toMatchObject({
      policyVersion: 0,
      lastRefusal: { reasonCode: '51', reason: 'Insufficient funds' },
      lastConnectionCode: 'sandbox',
      waitingFor: 'scheduled_retry',
    });
    expect(minute(sub.dunning.nextAttemptAt)).toBe('2028-02-13T00:00');
    expect(await metric('billing_dunning_runs_started_total{reason="51"}')).toBe(before.started + 1);
    expect(await metric('billing_dunning_retries_total{connection="sandbox",outcome="declined"}')).toBe(
      before.retries + 1,
    );
    expect(await c.events(s.id)).not.toContain('invoice.payment_recovered');

    const r = await c.op(s.id, 'payment-method', { card: cardData() });
    expect(r.body).toMatchObject({ status: 'active', dunning: null });
    const events = await c.events(s.id);
    expect(events.filter((e) => e === 'invoice.payment_recovered')).toHaveLength(1);
    expect(events.indexOf('invoice.payment_recovered')).toBe(events.lastIndexOf('invoice.paid') + 1);
    expect(await metric('billing_dunning_recovered_total{reason="51",connection="sandbox"}')).toBe(
      before.recovered + 1,
    );
    expect(await metric('billing_dunning_recovered_amount_total{currency="EUR"}')).toBe(before.amount + 1700);
  });

  it('an invoice paid on time is not a recovery', async () => {
    const c = await TimeClient.start(stack, '2028-03-10T00:00:00Z');
    const plan = await c.m.plan({ amount: 1500 });
    const s = await c.m.subscription({ planId: plan.id, card: cardData() });
    await c.advance({ to: '2028-04-10T01:00:00Z' });
    expect((await c.sub(s.id)).dunning).toBeNull();
    expect(await c.events(s.id)).not.toContain('invoice.payment_recovered');
  });
});
