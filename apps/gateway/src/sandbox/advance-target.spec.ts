import { DomainError } from '@app/errors';
import { advanceTarget } from './advance-target';

const NOW = new Date('2026-01-31T10:00:00.000Z');
const failure = (fn: () => unknown) => {
  try {
    fn();
    return 'ok';
  } catch (e) {
    return `${(e as DomainError).code}:${(e as DomainError).param ?? ''}`;
  }
};

describe('advanceTarget', () => {
  it('moves to a time, or by a duration from now (calendar months)', () => {
    expect(advanceTarget({ to: '2026-02-01T00:00:00Z' }, NOW, 'P1Y').toISOString()).toBe('2026-02-01T00:00:00.000Z');
    expect(advanceTarget({ by: 'P1M' }, NOW, 'P1Y').toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(advanceTarget({ by: 'PT16M' }, NOW, 'P1Y').toISOString()).toBe('2026-01-31T10:16:00.000Z');
  });

  it('allows standing still (a catch-up run of due work)', () => {
    expect(advanceTarget({ to: NOW.toISOString() }, NOW, 'P1Y')).toEqual(NOW);
    expect(advanceTarget({ by: 'PT0S' }, NOW, 'P1Y')).toEqual(NOW);
  });

  it('wants exactly one of to and by', () => {
    expect(failure(() => advanceTarget({}, NOW, 'P1Y'))).toBe('VALIDATION_FAILED:');
    expect(failure(() => advanceTarget({ to: '2026-02-01T00:00:00Z', by: 'P1D' }, NOW, 'P1Y'))).toBe(
      'VALIDATION_FAILED:',
    );
  });

  it('refuses malformed input with 400 naming the field', () => {
    expect(failure(() => advanceTarget({ to: '2026-02-01' }, NOW, 'P1Y'))).toBe('VALIDATION_FAILED:to');
    expect(failure(() => advanceTarget({ to: '2026-02-30T00:00:00Z' }, NOW, 'P1Y'))).toBe('VALIDATION_FAILED:to');
    expect(failure(() => advanceTarget({ by: '3 days' }, NOW, 'P1Y'))).toBe('VALIDATION_FAILED:by');
    expect(failure(() => advanceTarget({ by: 'P9000Y' }, NOW, 'P1Y'))).toBe('VALIDATION_FAILED:by');
  });

  it('never goes backwards: 422 CLOCK_BACKWARDS', () => {
    expect(failure(() => advanceTarget({ to: '2026-01-31T09:59:59.999Z' }, NOW, 'P1Y'))).toBe('CLOCK_BACKWARDS:to');
    expect(failure(() => advanceTarget({ by: '-P1D' }, NOW, 'P1Y'))).toBe('CLOCK_BACKWARDS:by');
    expect(failure(() => advanceTarget({ by: 'P1DT-25H' }, NOW, 'P1Y'))).toBe('CLOCK_BACKWARDS:by');
  });

  it('moves at most maxAdvance in one call: 422 CLOCK_ADVANCE_TOO_FAR beyond it', () => {
    expect(advanceTarget({ by: 'P1Y' }, NOW, 'P1Y').toISOString()).toBe('2027-01-31T10:00:00.000Z');
    expect(advanceTarget({ to: '2027-01-31T10:00:00Z' }, NOW, 'P1Y').toISOString()).toBe('2027-01-31T10:00:00.000Z');
    expect(failure(() => advanceTarget({ to: '2027-01-31T10:00:00.001Z' }, NOW, 'P1Y'))).toBe(
      'CLOCK_ADVANCE_TOO_FAR:to',
    );
    expect(failure(() => advanceTarget({ by: 'P1Y1D' }, NOW, 'P1Y'))).toBe('CLOCK_ADVANCE_TOO_FAR:by');
    expect(failure(() => advanceTarget({ by: 'P2M' }, NOW, 'P1M'))).toBe('CLOCK_ADVANCE_TOO_FAR:by');
    expect(advanceTarget({ to: '2036-01-01T00:00:00Z' }, NOW, 'P10Y').toISOString()).toBe('2036-01-01T00:00:00.000Z');
  });
});
