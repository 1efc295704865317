import { applyDecorators, createParamDecorator, ExecutionContext, UseGuards } from '@nestjs/common';
import { ApiBearerAuth } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { CallerContext, TEXT_LIMITS } from '@app/contracts';
import { DomainError } from '@app/errors';
import { PrivateKeyGuard } from './api-key.guard';
import { Principal } from './principal';
import { ApiErrors, ErrorEntry } from '../http/api-errors';

const MERCHANT_CODE_MAX = TEXT_LIMITS.MerchantQuery.merchantCode;

/**
 * The merchant a request acts for: `merchantCode` from the body (or query on GET) must be one of the key's
 * merchants (403 MERCHANT_MISMATCH); without it, a single-merchant key implies its merchant and a
 * multi-merchant key is refused with 400 MERCHANT_CODE_REQUIRED. On a route that requires it
 * (`o.merchantCodeRequired`), its absence is 400 VALIDATION_FAILED whatever the key, as for any missing
 * required field: the body's own validation would say so, but the caller is resolved before the body pipe
 * answers.
 */
export function resolveCaller(
  principal: Principal,
  requestId: string,
  merchantCode: unknown,
  o: CallerOptions = {},
): CallerContext {
  let code: string;
  const absent = merchantCode === undefined || merchantCode === null || merchantCode === '';
  if (absent && o.merchantCodeRequired) throw DomainError.validation('merchantCode is required', 'merchantCode');
  if (!absent) {
    if (typeof merchantCode !== 'string') throw DomainError.validation('merchantCode must be a string', 'merchantCode');
    // Its limit is checked here too: the caller is resolved before the body pipe would refuse it.
    if (merchantCode.length > MERCHANT_CODE_MAX) {
      throw DomainError.validation(
        `merchantCode must be shorter than or equal to ${MERCHANT_CODE_MAX} characters`,
        'merchantCode',
      );
    }
    if (!principal.merchantCodes.includes(merchantCode)) {
      throw new DomainError(
        'MERCHANT_MISMATCH',
        `This key does not belong to merchant ${merchantCode}`,
        'merchantCode',
      );
    }
    code = merchantCode;
  } else if (principal.merchantCodes.length === 1) {
    code = principal.merchantCodes[0];
  } else {
    throw new DomainError(
      'MERCHANT_CODE_REQUIRED',
      'This key belongs to several merchants: send merchantCode',
      'merchantCode',
    );
  }
  const caller: CallerContext = {
    requestId,
    environment: principal.environment,
    merchantCode: code,
    keyId: principal.keyId,
  };
  const merchantId = principal.merchantIds?.[code];
  if (merchantId !== undefined) caller.merchantId = merchantId;
  return caller;
}

export interface CallerOptions {
  /** The API reference marks `merchantCode` required on this route (capture, refund, a subscription's GET, …). */
  merchantCodeRequired?: boolean;
}

/** For a route whose reference marks `merchantCode` required: `@Caller(REQUIRES_MERCHANT_CODE)`. */
export const REQUIRES_MERCHANT_CODE: CallerOptions = { merchantCodeRequired: true };

/** The caller of a merchant route's request: its key, and `merchantCode` from the body (or query on GET). */
export function callerOf(context: ExecutionContext, o: CallerOptions = {}): CallerContext {
  const request = context.switchToHttp().getRequest<FastifyRequest & { user: Principal }>();
  const body = request.body as Record<string, unknown> | undefined;
  const query = request.query as Record<string, unknown> | undefined;
  const merchantCode = (body && typeof body === 'object' ? body.merchantCode : undefined) ?? query?.merchantCode;
  return resolveCaller(request.user, String(request.id), merchantCode, o);
}

/** The codes resolving the caller answers (resolveCaller). */
export function callerErrors(o: CallerOptions = {}): ErrorEntry[] {
  return o.merchantCodeRequired
    ? [{ VALIDATION_FAILED: '`merchantCode` is missing, not a string or too long' }, 'MERCHANT_MISMATCH']
    : [
        { VALIDATION_FAILED: '`merchantCode` is not a string or too long' },
        'MERCHANT_CODE_REQUIRED',
        'MERCHANT_MISMATCH',
      ];
}

/** A parameter decorator that also documents, on its route, the error codes working out its value answers. */
export function documentedParam(param: ParameterDecorator, errors: ErrorEntry[]): ParameterDecorator {
  return (target, key, index) => {
    param(target, key, index);
    if (key !== undefined) ApiErrors(...errors)(target, key, Object.getOwnPropertyDescriptor(target, key)!);
  };
}

const CallerParam = createParamDecorator((o: CallerOptions | undefined, context: ExecutionContext): CallerContext =>
  callerOf(context, o),
);

/** `@Caller() ctx: CallerContext` on a route guarded by `@PrivateRoute()`. */
export const Caller = (o?: CallerOptions): ParameterDecorator => documentedParam(CallerParam(o), callerErrors(o));

/** A merchant server route: private key required, documented as such. */
export const PrivateRoute = (): MethodDecorator & ClassDecorator =>
  applyDecorators(
    UseGuards(PrivateKeyGuard),
    // Its error codes (401, 403, 429) follow from the security scheme: openapi-errors.ts.
    ApiBearerAuth('privateKey'),
  );
