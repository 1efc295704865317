import { Subscription } from 'nats';
import { PaymentsSubjects } from '@app/contracts';
import { CommandServer } from '@app/messaging';
import { TestStack } from '../support/stack';
import { periods, TimeClient } from './renewal-fixtures';

jest.setTimeout(120_000);

/**
 * Billing sends renewal charges 32 to a `cmd.payments.purchase.many` message. During a rolling upgrade the
 * payments replicas may all be older ones that do not serve it: NATS answers "no responders", and billing
 * charges each renewal with the plain purchase command instead.
 */
describe('renewals when no payments replica serves purchase.many', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await TestStack.start({
      services: ['payments', 'payment-links', 'billing'],
      env: { RENEWAL_POLL_MS: '0' },
    });
    // The payments replica stops serving the subject, as a replica of the previous version never did.
    const server = stack.services.get('payments')![0].get(CommandServer);
    const subscriptions = (server as unknown as { subscriptions: Subscription[] }).subscriptions;
    const many = subscriptions.find((s) => s.getSubject() === PaymentsSubjects.purchaseMany);
    expect(many).toBeDefined();
    many!.unsubscribe();
  });
  afterAll(() => stack?.stop());

  it('renews through single purchases: one captured MIT per renewal, every invoice paid', async () => {
    const c = await TimeClient.start(stack, '2028-03-15T00:00:00Z');
    const plan = await c.m.plan({ amount: 700 });
    const subs = [await c.m.subscription({ planId: plan.id }), await c.m.subscription({ planId: plan.id })];
    await c.advance({ by: 'P2M' });
    for (const s of subs) {
      const invoices = await c.invoices(s.id);
      expect(periods(invoices)).toEqual([
        ['2028-03-15', '2028-04-15'],
        ['2028-04-15', '2028-05-15'],
        ['2028-05-15', '2028-06-15'],
      ]);
      expect(invoices.every((i) => i.status === 'paid')).toBe(true);
      expect((await c.renewalPayments(s.id)).map((p) => [p.value, p.status])).toEqual([
        [700, 'captured'],
        [700, 'captured'],
      ]);
    }
  });
});
