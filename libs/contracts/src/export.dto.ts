import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsISO8601, IsOptional, IsUUID, Max, Min, ValidateNested } from 'class-validator';
import { MerchantQuery } from './query.dto';
import { TextLimits } from './text-limits';

/** GET /v1/export/{payments,refunds,invoices}: the rows created in [createdFrom, createdTo), oldest first. */
@TextLimits()
export class ExportQuery extends MerchantQuery {
  @ApiProperty({ example: '2026-01-01T00:00:00Z', description: 'Rows created at or after this instant' })
  @IsISO8601({ strict: true, strictSeparator: true })
  createdFrom: string;

  @ApiProperty({ example: '2027-01-01T00:00:00Z', description: 'Rows created before this instant' })
  @IsISO8601({ strict: true, strictSeparator: true })
  createdTo: string;
}

/** Where the previous batch ended: its last row's creation instant and id. */
export class ExportCursor {
  @IsISO8601() createdAt: string;
  @IsUUID() id: string;
}

/** One batch of an export, after `after` (none: from the start of the range). */
export class ExportBatchCommand {
  @IsISO8601() createdFrom: string;
  @IsISO8601() createdTo: string;
  @IsOptional() @ValidateNested() @Type(() => ExportCursor) after?: ExportCursor;
  @IsInt() @Min(1) @Max(1000) limit: number;
}

/** A CSV cell as a service answers it. */
export type ExportCell = string | number | null;
/** A batch of rows, each the cells of the export's columns in their order (EXPORT_COLUMNS). */
export interface ExportBatch {
  rows: ExportCell[][];
  /** Absent when this batch was the last one. */
  next?: ExportCursor;
}

/** The column heads of each export, in order; the services answer cells in this order. */
export const EXPORT_COLUMNS = {
  payments: [
    'id',
    'createdAt',
    'paymentCode',
    'orderCode',
    'status',
    'paymentMethod',
    'cardBrand',
    'cardLast4',
    'shopperEmail',
    'currency',
    'exponent',
    'amount',
    'amountCaptured',
    'amountRefunded',
    'connectionCode',
    'refusalCode',
  ],
  refunds: [
    'id',
    'createdAt',
    'paymentId',
    'paymentCode',
    'orderCode',
    'currency',
    'exponent',
    'amount',
    'reason',
    'reference',
    'refundedByType',
    'refundedById',
  ],
  invoices: [
    'id',
    'createdAt',
    'subscriptionId',
    'status',
    'currency',
    'exponent',
    'amount',
    'periodStart',
    'periodEnd',
    'paidAt',
    'paymentAttemptCount',
  ],
} as const;
export type ExportKind = keyof typeof EXPORT_COLUMNS;
