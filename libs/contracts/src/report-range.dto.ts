import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, Matches } from 'class-validator';
import { DomainError } from '@app/errors';
import { MerchantCodeField } from './merchant-code';
import { TextLimits } from './text-limits';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;
/** Most days one report covers (a leap year). */
export const REPORT_MAX_DAYS = 366;
/** Days a report covers when the query names no `from`: the last 30, today included. */
export const REPORT_DEFAULT_DAYS = 30;

/** A report's days (UTC, both ends included): `from` and `to` as YYYY-MM-DD. */
@TextLimits()
export class ReportRangeQuery {
  @MerchantCodeField() merchantCode?: string;

  @ApiPropertyOptional({
    example: '2028-01-01',
    description: `First day (UTC, YYYY-MM-DD); default ${REPORT_DEFAULT_DAYS - 1} days before \`to\``,
  })
  @IsOptional()
  @Matches(DAY, { message: 'from must be a date YYYY-MM-DD' })
  from?: string;

  @ApiPropertyOptional({
    example: '2028-01-31',
    description: "Last day, included (UTC, YYYY-MM-DD); default today on the environment's clock",
  })
  @IsOptional()
  @Matches(DAY, { message: 'to must be a date YYYY-MM-DD' })
  to?: string;
}

/** The days a report covers: from 00:00 UTC of `from` to 00:00 UTC after `to`, and each day's date. */
export interface ReportRange {
  from: string;
  to: string;
  start: Date;
  /** Exclusive: 00:00 UTC of the day after `to`. */
  end: Date;
  days: string[];
}

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
export function reportRange(query: Pick<ReportRangeQuery, 'from' | 'to'>, now: Date): ReportRange {
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

/** A sum of money in one currency (minor units). */
export class CurrencyAmountView {
  @ApiProperty({ example: 'EUR' }) currency: string;
  @ApiProperty({ example: 2, description: 'Decimal places of the currency' }) exponent: number;
  @ApiProperty({ example: 170000, description: 'Minor units' }) value: number;
}
