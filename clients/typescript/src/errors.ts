import type { components } from './generated/api';
import type { ErrorCode } from './generated/events';

export type { ErrorCode, KnownErrorCode } from './generated/events';

/** The `error` object of the envelope every non-2xx answer carries; some codes add fields (`paymentId`, …). */
export type ErrorBody = Omit<components['schemas']['ErrorBody'], 'code'> & { code: ErrorCode } & Record<
    string,
    unknown
  >;

/** A non-2xx answer of the API, with the fields of its error envelope. */
export class PaymentsApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly param?: string;
  readonly requestId?: string;
  /** The whole `error` object, e.g. `paymentId` and `refusalCode` of a PAYMENT_DECLINED. */
  readonly body: ErrorBody;
  readonly headers: Headers;

  constructor(response: Response, envelope: unknown) {
    const body = errorBodyOf(response, envelope);
    super(`${body.status} ${body.code}: ${body.message}`);
    this.name = 'PaymentsApiError';
    this.status = body.status;
    this.code = body.code;
    this.param = body.param;
    this.requestId = body.requestId || response.headers.get('x-request-id') || undefined;
    this.body = body;
    this.headers = response.headers;
  }
}

function errorBodyOf(response: Response, envelope: unknown): ErrorBody {
  const error = (envelope as { error?: Partial<ErrorBody> } | undefined)?.error;
  if (error && typeof error === 'object' && typeof error.code === 'string') {
    return { ...error, status: error.status ?? response.status, message: String(error.message ?? '') } as ErrorBody;
  }
  // Not an envelope (a proxy's page, say): keep the status and say so.
  return {
    status: response.status,
    code: 'INTERNAL_ERROR',
    message: `HTTP ${response.status} without an error envelope`,
    requestId: response.headers.get('x-request-id') ?? '',
  };
}

/**
 * The data of a call, or a thrown {@link PaymentsApiError}:
 * `const payment = await unwrap(client.POST('/v1/payment/purchase', { body }))`.
 */
export async function unwrap<R extends { data?: unknown; error?: unknown; response: Response }>(
  call: Promise<R>,
): Promise<NonNullable<R['data']>> {
  const result = await call;
  if (result.error !== undefined || !result.response.ok) throw new PaymentsApiError(result.response, result.error);
  return result.data as NonNullable<R['data']>;
}
