import { DunningStateView, SubscriptionView } from '@app/contracts';
import { needsNewCard } from './card-update-mail';

const dunning = (o: Partial<DunningStateView>): DunningStateView => ({
  policyVersion: 0,
  scheduledAt: '2028-02-10T00:00:00Z',
  lastRefusal: null,
  lastConnectionCode: 'sandbox',
  waitingFor: 'scheduled_retry',
  nextAttemptAt: '2028-02-11T00:00:00Z',
  ...o,
});
const refusal = (recoveryAction: string) =>
  ({ reasonCode: '51', reason: 'x', originalReasonCode: '51', originalReason: 'x', recoveryAction }) as never;
const sub = (status: SubscriptionView['status'], d: DunningStateView | null) => ({ status, dunning: d });

describe('needsNewCard: which past-due subscriptions are emailed a card-update link', () => {
  it('a decline whose recovery is another card, or a run waiting for one', () => {
    expect(needsNewCard(sub('past_due', dunning({ lastRefusal: refusal('switch_method') })))).toBe(true);
    expect(needsNewCard(sub('past_due', dunning({ waitingFor: 'payment_method' })))).toBe(true);
  });

  it('not a decline a retry of the same card may fix, nor a subscription out of dunning', () => {
    expect(needsNewCard(sub('past_due', dunning({ lastRefusal: refusal('retry') })))).toBe(false);
    expect(needsNewCard(sub('past_due', dunning({})))).toBe(false);
    expect(needsNewCard(sub('active', dunning({ waitingFor: 'payment_method' })))).toBe(false);
    expect(needsNewCard(sub('past_due', null))).toBe(false);
  });
});
