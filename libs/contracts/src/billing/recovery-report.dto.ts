import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { RefusalCodeDto } from '../payments/payment.dto';
import { CurrencyAmountView } from '../report-range.dto';
import { DUNNING_WAITS, type DunningWait } from './subscription.dto';

/** Runs that started in the range, grouped one way, and how many of them were recovered so far. */
export class RecoveryRateView {
  @ApiProperty({ description: 'Invoices whose renewal was declined in the range (dunning runs started)' })
  entered: number;
  @ApiProperty({ description: 'Of those, paid since (by a retry, a forced retry or a new card)' }) recovered: number;
  @ApiProperty({ description: 'Of those, failed: the subscription was suspended' }) lost: number;
  @ApiProperty({ description: 'Of those, still open' }) open: number;
  @ApiProperty({ example: 0.5, description: 'recovered / entered, 0 when none entered' }) rate: number;
}

export class RecoveryByReasonView extends RecoveryRateView {
  @ApiProperty({ example: '51', description: 'The refusal reason code that started the run; `failed`: no code' })
  reasonCode: string;
}

export class RecoveryByConnectionView extends RecoveryRateView {
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'sandbox',
    description: 'The connection that declined the renewal; null: no charge was sent (a card known closed)',
  })
  connectionCode: string | null;
}

/** One day (UTC) of recovered revenue: invoices paid that day after at least one failed charge. */
export class RecoveredDayView {
  @ApiProperty({ example: '2028-02-13' }) date: string;
  @ApiProperty() count: number;
  @ApiProperty({ type: [CurrencyAmountView] }) amounts: CurrencyAmountView[];
}

/** An invoice in dunning (its subscription past_due) and what happens next. */
export class InvoiceInDunningView {
  @ApiProperty() invoiceId: string;
  @ApiProperty() subscriptionId: string;
  @ApiProperty() customerEmail: string;
  @ApiProperty({ type: CurrencyAmountView }) amountDue: CurrencyAmountView;
  @ApiProperty({ description: 'When its renewal was declined' }) dunningStartedAt: string;
  @ApiProperty({ example: '51' }) startReason: string;
  @ApiPropertyOptional({ type: RefusalCodeDto, nullable: true }) lastRefusal: RefusalCodeDto | null;
  @ApiProperty({ description: 'Charges of this invoice so far' }) paymentAttemptCount: number;
  @ApiProperty({
    enum: DUNNING_WAITS,
    description: '`scheduled_retry`: charged again at nextAttemptAt; `payment_method`: not until the card changes',
  })
  waitingFor: DunningWait;
  @ApiProperty({ type: String, nullable: true }) nextAttemptAt: string | null;
}

/**
 * GET /v1/subscription/recovery: what dunning recovered for the caller's merchant and environment over a range
 * of days (docs/api.md, Recovered revenue).
 */
export class RecoveryReportView {
  @ApiProperty({ example: '2028-01-01' }) from: string;
  @ApiProperty({ example: '2028-01-31' }) to: string;
  @ApiProperty({
    type: [CurrencyAmountView],
    description: 'Invoices paid in the range after at least one failed charge: their amounts, by currency',
  })
  recoveredRevenue: CurrencyAmountView[];
  @ApiProperty({ description: 'How many invoices those are' }) recoveredCount: number;
  @ApiProperty({ type: RecoveryRateView, description: 'Runs that started in the range and what became of them' })
  overall: RecoveryRateView;
  @ApiProperty({ type: [RecoveryByReasonView] }) byReason: RecoveryByReasonView[];
  @ApiProperty({ type: [RecoveryByConnectionView] }) byConnection: RecoveryByConnectionView[];
  @ApiProperty({ type: [RecoveredDayView], description: 'Every day of the range, recovered revenue that day' })
  recoveredByDay: RecoveredDayView[];
  @ApiProperty({
    type: [InvoiceInDunningView],
    description: 'Invoices in dunning now (whatever the range), next attempt first; at most 100',
  })
  inDunning: InvoiceInDunningView[];
}
