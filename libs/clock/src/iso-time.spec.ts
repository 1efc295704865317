import { addIsoDuration, parseRfc3339 } from './iso-time';

const at = (iso: string) => new Date(iso);
const plus = (from: string, duration: string) => addIsoDuration(at(from), duration)?.toISOString() ?? null;

describe('addIsoDuration', () => {
  it('adds the durations a sandbox clock advance takes', () => {
    expect(plus('2024-03-10T10:00:00.000Z', 'P3D')).toBe('2024-03-13T10:00:00.000Z');
    expect(plus('2024-03-10T10:00:00.000Z', 'PT16M')).toBe('2024-03-10T10:16:00.000Z');
    expect(plus('2024-03-10T10:00:00.000Z', 'P1M')).toBe('2024-04-10T10:00:00.000Z');
  });

  it('does calendar arithmetic in UTC, month-end anchored', () => {
    expect(plus('2024-01-31T12:00:00.000Z', 'P1M')).toBe('2024-02-29T12:00:00.000Z');
    expect(plus('2023-01-31T12:00:00.000Z', 'P1M')).toBe('2023-02-28T12:00:00.000Z');
    expect(plus('2024-02-29T00:00:00.000Z', 'P1Y')).toBe('2025-02-28T00:00:00.000Z');
    // No daylight-saving day is 23 or 25 hours long in UTC.
    expect(plus('2024-03-30T12:00:00.000Z', 'P1D')).toBe('2024-03-31T12:00:00.000Z');
  });

  it('takes combined components, weeks and a fraction of a time unit', () => {
    expect(plus('2024-01-01T00:00:00.000Z', 'P1Y2M3DT4H5M6S')).toBe('2025-03-04T04:05:06.000Z');
    expect(plus('2024-01-01T00:00:00.000Z', 'P2W')).toBe('2024-01-15T00:00:00.000Z');
    expect(plus('2024-01-01T00:00:00.000Z', 'PT1.5S')).toBe('2024-01-01T00:00:01.500Z');
    expect(plus('2024-01-01T00:00:00.000Z', 'PT36H')).toBe('2024-01-02T12:00:00.000Z');
    expect(plus('2024-01-01T00:00:00.000Z', 'P0D')).toBe('2024-01-01T00:00:00.000Z');
  });

  it('answers an earlier time for a negative duration (the caller refuses it as backwards)', () => {
    expect(plus('2024-01-02T00:00:00.000Z', '-P1D')).toBe('2024-01-01T00:00:00.000Z');
  });

  it.each(['', 'P', 'PT', '1D', 'P1', 'p1d', 'P1D ', ' P1D', 'P1.5M', 'P0.5D', 'PT', 'tomorrow', 'P1DT', 'P9999Y'])(
    'refuses %j',
    (duration) => {
      expect(addIsoDuration(at('2024-01-01T00:00:00.000Z'), duration)).toBeNull();
    },
  );
});

describe('parseRfc3339', () => {
  it('reads a date-time with a zone, to the millisecond', () => {
    expect(parseRfc3339('2026-03-01T00:00:00Z')?.toISOString()).toBe('2026-03-01T00:00:00.000Z');
    expect(parseRfc3339('2026-03-01T09:30:00.250+02:00')?.toISOString()).toBe('2026-03-01T07:30:00.250Z');
    expect(parseRfc3339('2026-03-01T00:00:00.123456Z')?.toISOString()).toBe('2026-03-01T00:00:00.123Z');
    expect(parseRfc3339('2024-02-29t23:59:59z')?.toISOString()).toBe('2024-02-29T23:59:59.000Z');
  });

  it.each([
    '2026-03-01T00:00:00',
    '2026-03-01',
    '2026-02-30T00:00:00Z',
    '2026-03-01 00:00:00Z',
    '2026-03-01T24:00:00Z',
    '+010000-01-01T00:00:00Z',
    'now',
    '',
  ])('refuses %j', (text) => {
    expect(parseRfc3339(text)).toBeNull();
  });
});
