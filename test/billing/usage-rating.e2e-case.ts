import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AGGREGATIONS, aggregate } from '../../apps/billing/src/usage/aggregate';
import { UsageRepository } from '../../apps/billing/src/usage/usage.repository';
import { TestStack } from '../support/stack';
import { billingMerchant, BillingClient, expectError } from './billing-fixtures';

/**
 * What the renewal uses to bill a period's usage (UsageRepository): the period's totals per meter agree with
 * the pure aggregation, and rating under its lock closes the period to usage reported meanwhile.
 */
describe('billing usage rating', () => {
  let stack: TestStack;
  let m: BillingClient;
  let db: DataSource;
  let repository: UsageRepository;
  let subscription: Record<string, any>;
  let meterIds: Record<string, string>;

  beforeAll(async () => {
    stack = await TestStack.start({ services: ['payments', 'billing'] });
    const billing = stack.services.get('billing')![0];
    db = billing.get(DataSource);
    repository = billing.get(UsageRepository);
    m = await billingMerchant(stack);
    meterIds = {};
    for (const code of ['calls', 'seats']) {
      const r = await m.post('/v1/subscription/meter', {
        code,
        name: code,
        aggregation: 'sum',
        pricing: { scheme: 'per_unit', unitAmount: 1 },
      });
      meterIds[code] = r.body.id;
    }
    const plan = await m.plan({ meterCodes: ['calls', 'seats'] });
    subscription = await m.subscription({ planId: plan.id });
  });
  afterAll(() => stack.stop());

  const at = (ms: number) => new Date(Date.parse(subscription.createdAt) + ms);

  it('period totals per meter equal the pure aggregation of the events in [start, end)', async () => {
    const events = Array.from({ length: 60 }, (_, i) => ({
      subscriptionId: subscription.id,
      meterCode: i % 3 ? 'calls' : 'seats',
      quantity: (i * 37) % 11,
      // Some share an instant, so `last` needs its tie-break; a few fall outside the window.
      occurredAt: at(1000 + (i % 20) * 100).toISOString(),
    }));
    const r = await m.post('/v1/subscription/usage/batch', { events }, null);
    expect(r.body.results.every((x: any) => x.status === 201)).toBe(true);
    const [start, end] = [at(1200), at(2500)];
    const totals = (await repository.periodTotals(db.manager, [{ id: subscription.id, start, end }])).get(
      subscription.id,
    )!;
    for (const code of ['calls', 'seats']) {
      const inWindow = r.body.results
        .map((x: any) => x.event)
        .filter((e: any) => e.meterCode === code)
        .filter((e: any) => Date.parse(e.occurredAt) >= start.getTime() && Date.parse(e.occurredAt) < end.getTime())
        .map((e: any) => ({ quantity: e.quantity, occurredAt: new Date(e.occurredAt), seq: e.id }));
      expect(inWindow.length).toBeGreaterThan(5);
      for (const mode of AGGREGATIONS) expect(totals.get(meterIds[code])![mode]).toBe(aggregate(mode, inWindow));
    }
  });

  it('usage reported while a period is being rated waits, then finds it closed (422)', async () => {
    const occurredAt = at(5000).toISOString();
    const report = () =>
      m.post(
        '/v1/subscription/usage',
        { subscriptionId: subscription.id, meterCode: 'calls', quantity: 1, occurredAt },
        null,
      );
    const runner = db.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    let answered = false;
    let pending: ReturnType<typeof report> | undefined;
    try {
      await repository.lockForRating(runner.manager, [subscription.id]);
      pending = report().finally(() => (answered = true));
      await new Promise((resolve) => setTimeout(resolve, 500));
      // Ingestion is held by the rating's lock.
      expect(answered).toBe(false);
      await repository.markBilledThrough(runner.manager, [{ id: subscription.id, through: at(6000) }]);
      await runner.commitTransaction();
    } finally {
      await runner.release();
    }
    expectError(await pending!, 422, 'USAGE_PERIOD_CLOSED', 'occurredAt');
    // The mark never moves back, and usage after it is open.
    await repository.markBilledThrough(db.manager, [{ id: subscription.id, through: at(4000) }]);
    expectError(await report(), 422, 'USAGE_PERIOD_CLOSED');
    const later = await m.post(
      '/v1/subscription/usage',
      { subscriptionId: subscription.id, meterCode: 'calls', quantity: 1, occurredAt: at(6000).toISOString() },
      randomUUID(),
    );
    expect(later.status).toBe(201);
  });
});
