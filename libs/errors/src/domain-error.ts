import { ErrorCode, httpStatusOf, isErrorCode } from '@app/contracts';

/** Extra fields some errors carry on the wire (e.g. `paymentId` and `refusalCode` on PAYMENT_DECLINED). */
export type ErrorDetails = Record<string, unknown>;

/**
 * The one error type of the domain: a stable code, a message for humans, the offending field when there is
 * one. Services throw it; the RPC layer carries it as `RpcErrorPayload`; the gateway maps the code to HTTP.
 */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly param?: string,
    readonly details?: ErrorDetails,
  ) {
    super(message);
    this.name = 'DomainError';
  }

  get status(): number {
    return httpStatusOf(this.code);
  }

  static notFound(what: string, param?: string): DomainError {
    return new DomainError('NOT_FOUND', `No such ${what}`, param);
  }

  static validation(message: string, param?: string): DomainError {
    return new DomainError('VALIDATION_FAILED', message, param);
  }

  static invalidState(message: string): DomainError {
    return new DomainError('INVALID_STATE', message);
  }
}

/** What travels over NATS in place of a thrown error. */
export interface RpcErrorPayload {
  code: ErrorCode;
  message: string;
  param?: string;
  details?: ErrorDetails;
}

export function isRpcErrorPayload(value: unknown): value is RpcErrorPayload {
  return (
    typeof value === 'object' &&
    value !== null &&
    isErrorCode((value as RpcErrorPayload).code) &&
    typeof (value as RpcErrorPayload).message === 'string'
  );
}

export function toRpcError(error: DomainError): RpcErrorPayload {
  return { code: error.code, message: error.message, param: error.param, details: error.details };
}

export function fromRpcError(payload: RpcErrorPayload): DomainError {
  return new DomainError(payload.code, payload.message, payload.param, payload.details);
}
