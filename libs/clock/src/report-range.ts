import { REPORT_DEFAULT_DAYS, REPORT_MAX_DAYS, type ReportRange } from '@app/contracts';
import { DomainError } from '@app/errors';

const DAY_MS = 86_400_000;

const dayOf = (d: Date): string => d.toISOString().slice(0, 10);

function parseDay(value: string, param: string): Date {
  const d = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(d.getTime()) || dayOf(d) !== value) throw DomainError.validation(`${param} is not a date`, param);
  return d;
}

/**
 * The range a report query names, `now` being the environment's clock (the sandbox's own): 400
 * VALIDATION_FAILED for a day that does not exist, `from` after `to`, or more than REPORT_MAX_DAYS days.
 */
export function reportRange(query: { from?: string; to?: string }, now: Date): ReportRange {
  const end0 = query.to !== undefined ? parseDay(query.to, 'to') : parseDay(dayOf(now), 'to');
  const start =
    query.from !== undefined
      ? parseDay(query.from, 'from')
      : new Date(end0.getTime() - (REPORT_DEFAULT_DAYS - 1) * DAY_MS);
  if (start.getTime() > end0.getTime()) throw DomainError.validation('from is after to', 'from');
  const count = Math.round((end0.getTime() - start.getTime()) / DAY_MS) + 1;
  if (count > REPORT_MAX_DAYS) {
    throw DomainError.validation(`A report covers at most ${REPORT_MAX_DAYS} days`, 'from');
  }
  const days = Array.from({ length: count }, (_, i) => dayOf(new Date(start.getTime() + i * DAY_MS)));
  return { from: dayOf(start), to: dayOf(end0), start, end: new Date(end0.getTime() + DAY_MS), days };
}
