import { applyDecorators } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiGatewayTimeoutResponse,
  ApiNotFoundResponse,
  ApiServiceUnavailableResponse,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { ErrorEnvelope } from '../http/error-envelope.dto';
import { unknownOutcomeDoc } from '../http/upstream-timeout.doc';

const ACQUIRER_TROUBLE = 'nothing was recorded; the operation may be retried with the same Idempotency-Key';

/**
 * The error answers of the payment routes, documented once. `acquirer`: the route waits for the acquirer,
 * which may be unreachable or slow (an acquirer's refusal is a 200 with status `failed`). `service`: the
 * service the route is forwarded to (payments unless named).
 */
export const PaymentErrorResponses = (
  o: { conflict?: string; unprocessable?: string; notFound?: string; acquirer?: boolean; service?: string } = {},
) =>
  applyDecorators(
    ApiBadRequestResponse({
      description: 'VALIDATION_FAILED, MERCHANT_CODE_REQUIRED or IDEMPOTENCY_KEY_REQUIRED',
      type: ErrorEnvelope,
    }),
    ...(o.notFound ? [ApiNotFoundResponse({ description: o.notFound, type: ErrorEnvelope })] : []),
    ...(o.conflict ? [ApiConflictResponse({ description: o.conflict, type: ErrorEnvelope })] : []),
    ...(o.unprocessable ? [ApiUnprocessableEntityResponse({ description: o.unprocessable, type: ErrorEnvelope })] : []),
    ...(o.acquirer
      ? [
          ApiServiceUnavailableResponse({
            description: `SERVICE_UNAVAILABLE: the acquirer could not be reached; ${ACQUIRER_TROUBLE}`,
            type: ErrorEnvelope,
          }),
          ApiGatewayTimeoutResponse({
            description:
              'UPSTREAM_TIMEOUT, two cases told apart by the message. (1) The acquirer did not answer within ' +
              `ACQUIRER_TIMEOUT_MS (message "The acquirer did not answer in time…"): ${ACQUIRER_TROUBLE}. ` +
              `(2) The outcome is unknown: ${unknownOutcomeDoc('payments')}.`,
            type: ErrorEnvelope,
          }),
        ]
      : [
          ApiGatewayTimeoutResponse({
            description: `UPSTREAM_TIMEOUT: the outcome is unknown: ${unknownOutcomeDoc(o.service ?? 'payments')}`,
            type: ErrorEnvelope,
          }),
        ]),
  );
