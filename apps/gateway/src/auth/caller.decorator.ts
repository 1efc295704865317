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
 * The merchant a request acts for, resolved here for every merchant route: `merchantCode` from the body (or
 * the query string on GET) must be one of the key's merchants (403 MERCHANT_MISMATCH); without it, a
 * single-merchant key implies its merchant and a multi-merchant key is refused with 400
 * MERCHANT_CODE_REQUIRED. No route makes it required: every request class declares it with
 * `MerchantCodeField()` (libs/contracts), which leaves the choice to this function.
 */
export function resolveCaller(principal: Principal, requestId: string, merchantCode: unknown): CallerContext {
  const code = merchantCodeOf(principal, merchantCode);
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

function merchantCodeOf(principal: Principal, merchantCode: unknown): string {
  const absent = merchantCode === undefined || merchantCode === null || merchantCode === '';
  if (absent) {
    if (principal.merchantCodes.length === 1) return principal.merchantCodes[0];
    throw new DomainError(
      'MERCHANT_CODE_REQUIRED',
      `This key belongs to several merchants (${[...principal.merchantCodes].sort().join(', ')}): send merchantCode ` +
        '(in the body, or in the query string on GET) to say which one the request is for',
      'merchantCode',
    );
  }
  if (typeof merchantCode !== 'string') throw DomainError.validation('merchantCode must be a string', 'merchantCode');
  // Its limit is checked here too: the caller is resolved before the body pipe would refuse it.
  if (merchantCode.length > MERCHANT_CODE_MAX) {
    throw DomainError.validation(
      `merchantCode must be shorter than or equal to ${MERCHANT_CODE_MAX} characters`,
      'merchantCode',
    );
  }
  if (!principal.merchantCodes.includes(merchantCode)) {
    throw new DomainError('MERCHANT_MISMATCH', `This key does not belong to merchant ${merchantCode}`, 'merchantCode');
  }
  return merchantCode;
}

/** The caller of a merchant route's request: its key, and `merchantCode` from the body (or query on GET). */
export function callerOf(context: ExecutionContext): CallerContext {
  const request = context.switchToHttp().getRequest<FastifyRequest & { user: Principal }>();
  const body = request.body as Record<string, unknown> | undefined;
  const query = request.query as Record<string, unknown> | undefined;
  const merchantCode = (body && typeof body === 'object' ? body.merchantCode : undefined) ?? query?.merchantCode;
  return resolveCaller(request.user, String(request.id), merchantCode);
}

/** The codes resolving the caller answers (resolveCaller). */
export const CALLER_ERRORS: ErrorEntry[] = [
  { VALIDATION_FAILED: '`merchantCode` is not a string or too long' },
  'MERCHANT_CODE_REQUIRED',
  'MERCHANT_MISMATCH',
];

/** A parameter decorator that also documents, on its route, the error codes working out its value answers. */
export function documentedParam(param: ParameterDecorator, errors: ErrorEntry[]): ParameterDecorator {
  return (target, key, index) => {
    param(target, key, index);
    if (key !== undefined) ApiErrors(...errors)(target, key, Object.getOwnPropertyDescriptor(target, key)!);
  };
}

const CallerParam = createParamDecorator((_data: unknown, context: ExecutionContext): CallerContext =>
  callerOf(context),
);

/** `@Caller() ctx: CallerContext` on a route guarded by `@PrivateRoute()`. */
export const Caller = (): ParameterDecorator => documentedParam(CallerParam(), CALLER_ERRORS);

/** A merchant server route: private key required, documented as such. */
export const PrivateRoute = (): MethodDecorator & ClassDecorator =>
  applyDecorators(
    UseGuards(PrivateKeyGuard),
    // Its error codes (401, 403, 429) follow from the security scheme: openapi-errors.ts.
    ApiBearerAuth('privateKey'),
  );
