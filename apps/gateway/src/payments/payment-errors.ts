import { applyDecorators } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { ErrorEnvelope } from '../http/error-envelope.dto';

/** The error answers of the payment routes, documented once. */
export const PaymentErrorResponses = (o: { conflict?: string; unprocessable?: string; notFound?: string } = {}) =>
  applyDecorators(
    ApiBadRequestResponse({
      description: 'VALIDATION_FAILED, MERCHANT_CODE_REQUIRED or IDEMPOTENCY_KEY_REQUIRED',
      type: ErrorEnvelope,
    }),
    ...(o.notFound ? [ApiNotFoundResponse({ description: o.notFound, type: ErrorEnvelope })] : []),
    ...(o.conflict ? [ApiConflictResponse({ description: o.conflict, type: ErrorEnvelope })] : []),
    ...(o.unprocessable ? [ApiUnprocessableEntityResponse({ description: o.unprocessable, type: ErrorEnvelope })] : []),
  );
