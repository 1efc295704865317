import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, Matches } from 'class-validator';
import { MerchantCodeField } from './merchant-code';
import { TextLimits } from './text-limits';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
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

/** A sum of money in one currency (minor units). */
export class CurrencyAmountView {
  @ApiProperty({ example: 'EUR' }) currency: string;
  @ApiProperty({ example: 2, description: 'Decimal places of the currency' }) exponent: number;
  @ApiProperty({ example: 170000, description: 'Minor units' }) value: number;
}
