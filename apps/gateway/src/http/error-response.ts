import { HttpException } from '@nestjs/common';
import { ErrorCode, httpStatusOf } from '@app/contracts';
import { DomainError, isDatabaseUnavailable } from '@app/errors';
import { rateLimitHeaders } from './rate-limited';

export interface ErrorResponse {
  status: number;
  body: { error: Record<string, unknown> };
  retryAfter?: number;
  /** RateLimit-* header fields of a 429. */
  headers?: Record<string, string>;
  /** True when the error was not foreseen: it is logged with its stack, the client sees a bare 500. */
  unexpected: boolean;
}

/** Fastify's own errors (body parsing, limits) by their code. */
const FASTIFY_CODES: Record<string, [ErrorCode, string]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: ['PAYLOAD_TOO_LARGE', 'Request body is larger than 1 MiB'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ['UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json'],
  FST_ERR_CTP_EMPTY_JSON_BODY: ['VALIDATION_FAILED', 'Body is empty but Content-Type is application/json'],
  FST_ERR_CTP_INVALID_JSON_BODY: ['VALIDATION_FAILED', 'Malformed JSON body'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ['VALIDATION_FAILED', 'Content-Length does not match the body'],
};

const BY_HTTP_STATUS: Record<number, ErrorCode> = {
  400: 'VALIDATION_FAILED',
  401: 'AUTH_INVALID',
  403: 'AUTH_INSUFFICIENT_SCOPE',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
};

/** Maps anything thrown to the error envelope; the only place that picks an HTTP status for an error. */
export function toErrorResponse(exception: unknown, requestId: string): ErrorResponse {
  let code: ErrorCode;
  let message: string;
  let param: string | undefined;
  let details: Record<string, unknown> | undefined;
  let unexpected = false;

  const fastifyCode = (exception as { code?: string })?.code;
  if (exception instanceof DomainError) {
    ({ code, message, param, details } = exception);
  } else if (fastifyCode && FASTIFY_CODES[fastifyCode]) {
    [code, message] = FASTIFY_CODES[fastifyCode];
  } else if (exception instanceof SyntaxError && /JSON/i.test(exception.message)) {
    [code, message] = ['VALIDATION_FAILED', 'Malformed JSON body'];
  } else if (exception instanceof HttpException && BY_HTTP_STATUS[exception.getStatus()]) {
    code = BY_HTTP_STATUS[exception.getStatus()];
    message = exception.message;
  } else if (
    typeof (exception as { statusCode?: number })?.statusCode === 'number' &&
    BY_HTTP_STATUS[(exception as { statusCode: number }).statusCode]
  ) {
    code = BY_HTTP_STATUS[(exception as { statusCode: number }).statusCode];
    message = (exception as Error).message;
  } else if (isDatabaseUnavailable(exception)) {
    [code, message] = ['SERVICE_UNAVAILABLE', "The gateway's database is unreachable"];
  } else {
    [code, message, unexpected] = ['INTERNAL_ERROR', 'Internal error', true];
  }

  const { retryAfter, rateLimit, ...extra } = details ?? {};
  const status = httpStatusOf(code);
  const error: Record<string, unknown> = { status, code, message, ...extra };
  if (param) error.param = param;
  error.requestId = requestId;
  const wait = code === 'IDEMPOTENCY_IN_PROGRESS' ? 1 : typeof retryAfter === 'number' ? retryAfter : undefined;
  const headers = rateLimitHeaders({ rateLimit });
  return { status, body: { error }, retryAfter: wait, unexpected, ...(headers ? { headers } : {}) };
}
