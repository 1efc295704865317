import { TestStack } from '../support/stack';
import { minute, periods, TimeClient, timeStack } from './renewal-fixtures';

jest.setTimeout(120_000);

/** Renewals driven by the sandbox clock through the public API. */
describe('renewals over time', () => {
  let stack: TestStack;

  beforeAll(async () => (stack = await timeStack()));
  afterAll(() => stack?.stop());

  it('monthly from Jan 31 through a leap February: anchored periods, one paid invoice and MIT each', async () => {
    const c = await TimeClient.start(stack, '2028-01-31T10:00:00Z');
    const plan = await c.m.plan({ amount: 1000 });
    const s = await c.m.subscription({ planId: plan.id });
    // The clock keeps running after an advance: times are compared to the minute.
    expect(minute(s.nextBillingDate)).toBe('2028-02-29T10:00');
    await c.advance({ to: '2028-04-30T12:00:00Z' });
    const invoices = await c.invoices(s.id);
    expect(periods(invoices)).toEqual([
      ['2028-01-31', '2028-02-29'],
      ['2028-02-29', '2028-03-31'],
      ['2028-03-31', '2028-04-30'],
      ['2028-04-30', '2028-05-31'],
    ]);
    expect(invoices.map((i) => [i.status, i.amount, i.paymentAttemptCount])).toEqual([
      ['paid', 1000, 1],
      ['paid', 1000, 1],
      ['paid', 1000, 1],
      ['paid', 1000, 1],
    ]);
    // Each renewal ran as of its own due instant.
    expect(invoices.slice(1).map((i) => i.paidAt)).toEqual(invoices.slice(1).map((i) => i.periodStart));
    expect(invoices.slice(1).map((i) => minute(i.paidAt))).toEqual([
      '2028-02-29T10:00',
      '2028-03-31T10:00',
      '2028-04-30T10:00',
    ]);
    const after = await c.sub(s.id);
    expect(after).toMatchObject({ status: 'active', cyclesCompleted: 4 });
    expect([after.currentPeriodStart, after.currentPeriodEnd, after.nextBillingDate].map(minute)).toEqual([
      '2028-04-30T10:00',
      '2028-05-31T10:00',
      '2028-05-31T10:00',
    ]);
    const charges = await c.renewalPayments(s.id);
    expect(charges.map((p) => [p.value, p.status])).toEqual([
      [1000, 'captured'],
      [1000, 'captured'],
      [1000, 'captured'],
    ]);
    const events = await c.events(s.id);
    expect(events.filter((e) => e === 'subscription.renewed')).toHaveLength(3);
    expect(events.filter((e) => e === 'invoice.paid')).toHaveLength(4);
    // Advancing again runs nothing twice.
    await c.advance({ by: 'PT0S' });
    expect(await c.invoices(s.id)).toHaveLength(4);
  });

  it('P3M on a monthly plan: three renewals with three consecutive periods', async () => {
    const c = await TimeClient.start(stack, '2028-03-15T00:00:00Z');
    const plan = await c.m.plan({ amount: 500 });
    const s = await c.m.subscription({ planId: plan.id });
    await c.advance({ by: 'P3M' });
    expect(periods(await c.invoices(s.id))).toEqual([
      ['2028-03-15', '2028-04-15'],
      ['2028-04-15', '2028-05-15'],
      ['2028-05-15', '2028-06-15'],
      ['2028-06-15', '2028-07-15'],
    ]);
    expect(await c.renewalPayments(s.id)).toHaveLength(3);
  });

  it('weekly renewals', async () => {
    const c = await TimeClient.start(stack, '2028-06-01T08:00:00Z');
    const plan = await c.m.plan({ interval: 'week', amount: 300 });
    const s = await c.m.subscription({ planId: plan.id });
    await c.advance({ to: '2028-06-22T09:00:00Z' });
    expect(periods(await c.invoices(s.id))).toEqual([
      ['2028-06-01', '2028-06-08'],
      ['2028-06-08', '2028-06-15'],
      ['2028-06-15', '2028-06-22'],
      ['2028-06-22', '2028-06-29'],
    ]);
  });

  it('intro cycles bill introAmount, then the plan amount', async () => {
    const c = await TimeClient.start(stack, '2028-02-10T00:00:00Z');
    const plan = await c.m.plan({ amount: 1000, introAmount: 100, introBillingCycles: 2 });
    const s = await c.m.subscription({ planId: plan.id });
    await c.advance({ by: 'P3M' });
    expect((await c.invoices(s.id)).map((i) => i.amount)).toEqual([100, 100, 1000, 1000]);
    expect((await c.renewalPayments(s.id)).map((p) => p.value)).toEqual([100, 1000, 1000]);
  });

  it('trial end: the first charge at trialEnd, trial_ended and activated', async () => {
    const c = await TimeClient.start(stack, '2028-05-01T00:00:00Z');
    const plan = await c.m.plan({ amount: 900, trialPeriodDays: 7 });
    const s = await c.m.subscription({ planId: plan.id });
    expect(s.status).toBe('trialing');
    await c.advance({ by: 'P6D' });
    expect((await c.sub(s.id)).status).toBe('trialing');
    await c.advance({ by: 'P2D' });
    const after = await c.sub(s.id);
    expect(after).toMatchObject({ status: 'active', cyclesCompleted: 1 });
    expect([minute(after.currentPeriodStart), minute(after.nextBillingDate)]).toEqual([
      '2028-05-08T00:00',
      '2028-06-08T00:00',
    ]);
    expect(periods(await c.invoices(s.id))).toEqual([['2028-05-08', '2028-06-08']]);
    const events = await c.events(s.id);
    expect(events).toEqual(expect.arrayContaining(['subscription.trial_ended', 'subscription.activated']));
    expect(events.indexOf('subscription.trial_ended')).toBeLessThan(events.indexOf('subscription.activated'));
  });

  it('deferred start: pending until startAt, then cycle 1 charged; with a trial the trial starts then', async () => {
    const c = await TimeClient.start(stack, '2028-07-01T00:00:00Z');
    const plan = await c.m.plan({ amount: 700 });
    const trial = await c.m.plan({ amount: 700, trialPeriodDays: 3 });
    const s = await c.m.subscription({ planId: plan.id, startAt: '2028-07-05T00:00:00Z' });
    const t = await c.m.subscription({ planId: trial.id, startAt: '2028-07-05T00:00:00Z' });
    expect([s.status, t.status]).toEqual(['pending', 'pending']);
    await c.advance({ to: '2028-07-06T00:00:00Z' });
    expect(await c.sub(s.id)).toMatchObject({ status: 'active', nextBillingDate: '2028-08-05T00:00:00.000Z' });
    expect(periods(await c.invoices(s.id))).toEqual([['2028-07-05', '2028-08-05']]);
    expect(await c.sub(t.id)).toMatchObject({ status: 'trialing', nextBillingDate: '2028-07-08T00:00:00.000Z' });
    expect(await c.invoices(t.id)).toEqual([]);
    await c.advance({ to: '2028-07-09T00:00:00Z' });
    expect(await c.sub(t.id)).toMatchObject({ status: 'active', nextBillingDate: '2028-08-08T00:00:00.000Z' });
  });

  it('maxBillingCycles: completed at the end of the last paid period', async () => {
    const c = await TimeClient.start(stack, '2028-08-01T00:00:00Z');
    const plan = await c.m.plan({ amount: 400, maxBillingCycles: 2 });
    const s = await c.m.subscription({ planId: plan.id });
    await c.advance({ to: '2028-11-15T00:00:00Z' });
    expect(await c.sub(s.id)).toMatchObject({ status: 'completed', cyclesCompleted: 2, nextBillingDate: null });
    expect(await c.invoices(s.id)).toHaveLength(2);
    expect(await c.events(s.id)).toContain('subscription.completed');
  });

  it('a scheduled plan change applies at the boundary; the new plan sets the following periods', async () => {
    const c = await TimeClient.start(stack, '2028-09-10T00:00:00Z');
    const monthly = await c.m.plan({ amount: 1000 });
    const weekly = await c.m.plan({ interval: 'week', amount: 300 });
    const s = await c.m.subscription({ planId: monthly.id });
    const r = await c.op(s.id, 'change-plan', { planId: weekly.id, applyAt: 'next_billing' });
    expect(r.status).toBe(200);
    await c.advance({ to: '2028-10-18T00:00:00Z' });
    const invoices = await c.invoices(s.id);
    expect(periods(invoices)).toEqual([
      ['2028-09-10', '2028-10-10'],
      ['2028-10-10', '2028-10-17'],
      ['2028-10-17', '2028-10-24'],
    ]);
    expect(invoices.map((i) => i.amount)).toEqual([1000, 300, 300]);
    expect(await c.sub(s.id)).toMatchObject({ planId: weekly.id, pendingPlanId: null });
    expect(await c.events(s.id)).toContain('subscription.plan_changed');
  });

  it('pause across a renewal date bills nothing; resume starts a new period', async () => {
    const c = await TimeClient.start(stack, '2028-10-01T00:00:00Z');
    const plan = await c.m.plan({ amount: 800 });
    const s = await c.m.subscription({ planId: plan.id });
    expect((await c.op(s.id, 'pause')).status).toBe(200);
    await c.advance({ to: '2028-12-15T00:00:00Z' });
    expect(await c.invoices(s.id)).toHaveLength(1);
    expect(await c.renewalPayments(s.id)).toEqual([]);
    expect((await c.op(s.id, 'resume')).status).toBe(200);
    await c.advance({ to: '2029-01-16T00:00:00Z' });
    const invoices = await c.invoices(s.id);
    expect(invoices).toHaveLength(2);
    expect(invoices[1].periodStart.slice(0, 10)).toBe('2029-01-15');
  });
});
