import { DateTime, Duration } from 'luxon';

/** Latest instant a sandbox clock may show: RFC 3339 has four-digit years. */
export const LATEST_TIME_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

const CALENDAR_UNITS = ['years', 'months', 'weeks', 'days'] as const;

/**
 * `from` plus an ISO 8601 duration ("P1M", "P3D", "PT16M", "P1Y2M3DT4H"), with calendar arithmetic in UTC:
 * 2024-01-31 + P1M = 2024-02-29 (month-end anchored, as billing periods are). Answers null when `iso` is
 * not a duration this accepts: no component after a designator ("P", "PT", "P1DT"), a fraction in a calendar unit ("P1.5M"
 * has no single meaning; time units may have one, "PT1.5S"), or a result past year 9999. A negative
 * duration ("-P1D") is well-formed and answers an earlier time; refusing it is the caller's rule.
 */
export function addIsoDuration(from: Date, iso: string): Date | null {
  // Luxon also takes "P", "PT" and a dangling "P1DT"; ISO 8601 wants a component after each designator.
  if (!/^-?P(?=.*\d)/.test(iso) || iso.endsWith('T')) return null;
  const duration = Duration.fromISO(iso);
  if (!duration.isValid) return null;
  const units = duration.toObject();
  if (CALENDAR_UNITS.some((u) => units[u] !== undefined && !Number.isInteger(units[u]))) return null;
  const result = DateTime.fromMillis(from.getTime(), { zone: 'utc' }).plus(duration);
  if (!result.isValid || result.toMillis() > LATEST_TIME_MS) return null;
  return result.toJSDate();
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * An RFC 3339 date-time with its time zone ("2026-03-01T00:00:00Z", "…T09:30:00.250+02:00"), or null: no zone,
 * a date alone, a day the month does not have (which `Date.parse` would roll into the next month) or a
 * year past 9999. Digits past milliseconds are dropped.
 */
export function parseRfc3339(text: string): Date | null {
  if (!RFC3339.test(text)) return null;
  const parsed = DateTime.fromISO(text, { setZone: true });
  if (!parsed.isValid || parsed.toMillis() > LATEST_TIME_MS) return null;
  return parsed.toJSDate();
}
