import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ErrorCodes, RefusalCodeDto } from '@app/contracts';

export class ErrorBody {
  @ApiProperty({ example: 409 }) status: number;
  @ApiProperty({ enum: Object.keys(ErrorCodes), example: 'INVALID_STATE' }) code: string;
  @ApiProperty({ example: 'Only an authorized payment can be captured' }) message: string;
  @ApiPropertyOptional({ example: 'amount.value' }) param?: string;
  @ApiProperty({ description: 'Equals the X-Request-Id response header' }) requestId: string;
  @ApiPropertyOptional({ description: 'PAYMENT_DECLINED only: the declined payment', format: 'uuid' })
  paymentId?: string;
  @ApiPropertyOptional({
    type: RefusalCodeDto,
    nullable: true,
    description: 'PAYMENT_DECLINED only: why it was declined (null for a processing failure)',
  })
  refusalCode?: RefusalCodeDto | null;
}

/** The body of every non-2xx answer (docs/api.md, Errors). */
export class ErrorEnvelope {
  @ApiProperty({ type: ErrorBody }) error: ErrorBody;
}
