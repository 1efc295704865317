import { DomainError } from '@app/errors';
import { reportRange } from './report-range';

const now = new Date('2028-02-10T12:34:00Z');

describe('reportRange', () => {
  it('defaults to the last 30 days ending today on the given clock', () => {
    const r = reportRange({}, now);
    expect(r).toMatchObject({ from: '2028-01-12', to: '2028-02-10' });
    expect(r.days).toHaveLength(30);
    expect(r.start.toISOString()).toBe('2028-01-12T00:00:00.000Z');
    expect(r.end.toISOString()).toBe('2028-02-11T00:00:00.000Z');
  });

  it('takes both ends, included, across a leap day', () => {
    const r = reportRange({ from: '2028-02-27', to: '2028-03-01' }, now);
    expect(r.days).toEqual(['2028-02-27', '2028-02-28', '2028-02-29', '2028-03-01']);
  });

  it('a single day, and the longest range (366 days)', () => {
    expect(reportRange({ from: '2028-02-10', to: '2028-02-10' }, now).days).toEqual(['2028-02-10']);
    expect(reportRange({ from: '2028-01-01', to: '2028-12-31' }, now).days).toHaveLength(366);
  });

  it.each([
    [{ from: '2027-02-29' }, 'from'],
    [{ to: '2028-13-01' }, 'to'],
    [{ from: '2028-02-11', to: '2028-02-10' }, 'from'],
    [{ from: '2027-01-01', to: '2028-01-02' }, 'from'],
  ])('400 VALIDATION_FAILED for %j', (query, param) => {
    let error: unknown;
    try {
      reportRange(query, now);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: 'VALIDATION_FAILED', param });
  });
});
