import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ErrorCodes } from '@app/contracts';

export class ErrorBody {
  @ApiProperty({ example: 409 }) status: number;
  @ApiProperty({ enum: Object.keys(ErrorCodes), example: 'INVALID_STATE' }) code: string;
  @ApiProperty({ example: 'Only an authorized payment can be captured' }) message: string;
  @ApiPropertyOptional({ example: 'amount.value' }) param?: string;
  @ApiProperty({ description: 'Equals the X-Request-Id response header' }) requestId: string;
}

/** The body of every non-2xx answer (docs/api.md, Errors). */
export class ErrorEnvelope {
  @ApiProperty({ type: ErrorBody }) error: ErrorBody;
}
