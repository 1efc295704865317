import { ApiProperty } from '@nestjs/swagger';
import { CurrencyAmountView } from '../report-range.dto';

/** Payments created in a period: how many, how many were approved, declined or failed, and what was approved. */
export class PaymentCountsView {
  @ApiProperty({ description: 'Payments with an answer: approved, declined or failed' }) attempted: number;
  @ApiProperty({
    description: 'Authorized or captured (refunded, voided or expired since included); abandoned ones are not',
  })
  approved: number;
  @ApiProperty() declined: number;
  @ApiProperty({ description: 'A processing failure (no refusal code)' }) failed: number;
  @ApiProperty({ example: 0.9, description: 'approved / attempted, 0 when none' }) approvalRate: number;
  @ApiProperty({ type: [CurrencyAmountView], description: 'Amounts of the approved payments, by currency' })
  volume: CurrencyAmountView[];
}

export class PaymentDayView extends PaymentCountsView {
  @ApiProperty({ example: '2028-01-31' }) date: string;
}

export class DeclineReasonView {
  @ApiProperty({ example: '51' }) reasonCode: string;
  @ApiProperty({ example: 'Insufficient funds' }) reason: string;
  @ApiProperty() count: number;
}

/** GET /v1/payment/stats: the caller's payments over a range of days (UTC), by day, and declines by reason. */
export class PaymentStatsView {
  @ApiProperty({ example: '2028-01-01' }) from: string;
  @ApiProperty({ example: '2028-01-31' }) to: string;
  @ApiProperty({ type: PaymentCountsView }) totals: PaymentCountsView;
  @ApiProperty({ type: [PaymentDayView], description: 'Every day of the range, oldest first' })
  byDay: PaymentDayView[];
  @ApiProperty({ type: [DeclineReasonView], description: 'Declined payments by refusal reason, most first' })
  declinesByReason: DeclineReasonView[];
}
