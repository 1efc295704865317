import { reportRange } from '@app/clock';
import { recoveryReport } from './recovery-report';
import type { InDunningRow } from './recovery-report.repository';

const range = reportRange({ from: '2028-02-01', to: '2028-02-03' }, new Date('2028-02-03T00:00:00Z'));

describe('recoveryReport', () => {
  it('rates by reason and connection from the cohort: paid recovered, open open, failed and void lost', () => {
    const report = recoveryReport(range, {
      cohort: [
        { reason: '51', connection: 'sandbox', status: 'paid', n: 3 },
        { reason: '51', connection: 'sandbox', status: 'failed', n: 1 },
        { reason: '54', connection: 'second', status: 'void', n: 1 },
        { reason: '54', connection: null, status: 'open', n: 2 },
      ],
      recovered: [],
      inDunning: [],
    });
    expect(report.overall).toEqual({ entered: 7, recovered: 3, lost: 2, open: 2, rate: 0.4286 });
    expect(report.byReason).toEqual([
      { reasonCode: '51', entered: 4, recovered: 3, lost: 1, open: 0, rate: 0.75 },
      { reasonCode: '54', entered: 3, recovered: 0, lost: 1, open: 2, rate: 0 },
    ]);
    expect(report.byConnection.map((c) => [c.connectionCode, c.entered])).toEqual([
      ['sandbox', 4],
      [null, 2],
      ['second', 1],
    ]);
  });

  it('recovered revenue by currency and every day of the range, exact past 2^53 refused', () => {
    const report = recoveryReport(range, {
      cohort: [],
      recovered: [
        { day: '2028-02-01', currency: 'USD', exponent: 2, n: 2, total: '3000' },
        { day: '2028-02-03', currency: 'EUR', exponent: 2, n: 1, total: '1700' },
        { day: '2028-02-03', currency: 'USD', exponent: 2, n: 1, total: '500' },
      ],
      inDunning: [],
    });
    expect(report.recoveredRevenue).toEqual([
      { currency: 'EUR', exponent: 2, value: 1700 },
      { currency: 'USD', exponent: 2, value: 3500 },
    ]);
    expect(report.recoveredCount).toBe(4);
    expect(report.recoveredByDay.map((d) => [d.date, d.count, d.amounts.length])).toEqual([
      ['2028-02-01', 2, 1],
      ['2028-02-02', 0, 0],
      ['2028-02-03', 2, 2],
    ]);
    expect(report.overall.rate).toBe(0);
    const huge = { day: '2028-02-01', currency: 'USD', exponent: 2, n: 1, total: '9007199254740993' };
    expect(() => recoveryReport(range, { cohort: [], recovered: [huge], inDunning: [] })).toThrow(RangeError);
  });

  it('an invoice waiting for a new card has no next attempt', () => {
    const row: InDunningRow = {
      id: 'i',
      subscription_id: 's',
      customer_email: 'a@b.example',
      amount: '1700',
      currency: 'EUR',
      exponent: 2,
      started_at: new Date('2028-02-01T00:00:00Z'),
      reason: '54',
      payment_attempt_count: 1,
      dunning: {
        policyVersion: 1,
        scheduledAt: '2028-02-01T00:00:00.000Z',
        lastRefusal: null,
        lastConnectionCode: 'sandbox',
        waitingFor: 'payment_method',
      },
      next_billing_date: new Date('2028-02-02T00:00:00Z'),
    };
    const [view] = recoveryReport(range, { cohort: [], recovered: [], inDunning: [row] }).inDunning;
    expect(view).toMatchObject({ waitingFor: 'payment_method', nextAttemptAt: null, amountDue: { value: 1700 } });
  });
});
