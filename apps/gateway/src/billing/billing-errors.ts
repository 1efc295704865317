import { applyDecorators } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiGatewayTimeoutResponse,
  ApiNotFoundResponse,
  ApiPaymentRequiredResponse,
  ApiServiceUnavailableResponse,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { DomainError } from '@app/errors';
import { ErrorEnvelope } from '../http/error-envelope.dto';
import { unknownOutcomeDoc } from '../http/upstream-timeout.doc';

/** The error answers of the billing routes, documented once. */
export const BillingErrorResponses = (
  o: { notFound?: string; conflict?: string; unprocessable?: string; declined?: boolean; payments?: boolean } = {},
) =>
  applyDecorators(
    ApiBadRequestResponse({ description: 'VALIDATION_FAILED or MERCHANT_CODE_REQUIRED', type: ErrorEnvelope }),
    ...(o.notFound ? [ApiNotFoundResponse({ description: o.notFound, type: ErrorEnvelope })] : []),
    ...(o.conflict ? [ApiConflictResponse({ description: o.conflict, type: ErrorEnvelope })] : []),
    ...(o.unprocessable ? [ApiUnprocessableEntityResponse({ description: o.unprocessable, type: ErrorEnvelope })] : []),
    ...(o.declined
      ? [
          ApiPaymentRequiredResponse({
            description: 'PAYMENT_DECLINED: the charge or verification was declined (`paymentId`, `refusalCode`)',
            type: ErrorEnvelope,
          }),
        ]
      : []),
    ...(o.payments
      ? [
          ApiServiceUnavailableResponse({
            description: 'SERVICE_UNAVAILABLE: the payments service could not be reached; nothing was kept',
            type: ErrorEnvelope,
          }),
        ]
      : []),
    ApiGatewayTimeoutResponse({
      description: `UPSTREAM_TIMEOUT: the outcome is unknown: ${unknownOutcomeDoc('billing')}`,
      type: ErrorEnvelope,
    }),
  );

/** A plan id in the path: an integer, else no such plan (404, as for any unknown handle). */
export function planIdOf(raw: string): number {
  const id = /^[1-9]\d{0,15}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id)) throw DomainError.notFound('plan', 'id');
  return id;
}
