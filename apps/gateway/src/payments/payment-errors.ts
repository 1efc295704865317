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

const ACQUIRER_TROUBLE = 'nothing was recorded; the operation may be retried with the same Idempotency-Key';

/** The gateway's own timeout, told apart from the acquirer's by its message (README, API notes). */
export const GATEWAY_TIMEOUT_DOC =
  'the payments service did not answer the gateway within RPC_TIMEOUT_MS (message "The payments service did not answer in time; the outcome is unknown…"): the operation may have been recorded, so retry with the same Idempotency-Key, which answers the recorded outcome; a new key could charge, capture or refund twice';

/**
 * The error answers of the payment routes, documented once. `acquirer`: the route waits for the acquirer,
 * which may be unreachable or slow (an acquirer's refusal is a 200 with status `failed`).
 */
export const PaymentErrorResponses = (
  o: { conflict?: string; unprocessable?: string; notFound?: string; acquirer?: boolean } = {},
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
              `(2) The outcome is unknown: ${GATEWAY_TIMEOUT_DOC}.`,
            type: ErrorEnvelope,
          }),
        ]
      : [
          ApiGatewayTimeoutResponse({
            description: 'UPSTREAM_TIMEOUT: the payments service did not answer in time; retry',
            type: ErrorEnvelope,
          }),
        ]),
  );
