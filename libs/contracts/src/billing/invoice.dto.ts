import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { RefusalCodeDto, RoutingAttemptView } from '../payments/payment.dto';

export const INVOICE_STATUSES = ['open', 'paid', 'failed', 'void'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export class InvoiceLineView {
  @ApiProperty() description: string;
  @ApiPropertyOptional({ format: 'uuid', description: 'Absent on the base line' }) meterId?: string;
  @ApiPropertyOptional() quantity?: number;
  @ApiPropertyOptional() billableQuantity?: number;
  @ApiProperty() amount: number;
}

/** One charge attempt of an invoice (single-invoice answer only). */
export class InvoiceAttemptView {
  @ApiProperty() at: string;
  @ApiProperty({ format: 'uuid' }) paymentId: string;
  @ApiProperty({ enum: ['captured', 'declined', 'failed'] }) status: string;
  @ApiPropertyOptional({ type: RefusalCodeDto, nullable: true }) refusalCode: RefusalCodeDto | null;
  @ApiPropertyOptional({
    description: "The merchant's connection that answered: the one that charged when `status` is `captured`",
    example: 'sandbox',
  })
  connectionCode?: string;
  @ApiPropertyOptional({
    type: [RoutingAttemptView],
    description:
      'Only when the charge went to more than one connection: each one, in order (a `retry` decline moves it ' +
      'to the next connection; the last one answered)',
  })
  cascade?: RoutingAttemptView[];
}

export class InvoiceView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) subscriptionId: string;
  @ApiProperty({ enum: INVOICE_STATUSES }) status: InvoiceStatus;
  @ApiProperty() amount: number;
  @ApiProperty() currency: string;
  @ApiProperty() exponent: number;
  @ApiProperty() periodStart: string;
  @ApiProperty() periodEnd: string;
  @ApiProperty() paymentAttemptCount: number;
  @ApiProperty({ type: [InvoiceLineView] }) lines: InvoiceLineView[];
  @ApiProperty() createdAt: string;
  @ApiPropertyOptional({ type: String, nullable: true }) paidAt: string | null;
  @ApiPropertyOptional({ type: [InvoiceAttemptView], description: 'GET /v1/subscription/invoice/{id} only' })
  attempts?: InvoiceAttemptView[];
}
