import { applyDecorators, createParamDecorator, ExecutionContext } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { CallerContext, IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_FORMAT } from '@app/contracts';
import { checkIdempotencyKey } from '@app/idempotency';
import { CALLER_ERRORS, callerOf, documentedParam } from '../auth/caller.decorator';

/**
 * `@IdempotentCaller() ctx` on a route that honours an Idempotency-Key: the caller as `@Caller()` resolves it, plus the
 * Idempotency-Key header (1-255 printable ASCII, else 400) as `ctx.idempotencyKey`. Whether a key is
 * required (production) is the service's rule.
 */
const IdempotentCallerParam = createParamDecorator((_data: unknown, context: ExecutionContext): CallerContext => {
  const request = context.switchToHttp().getRequest<FastifyRequest>();
  const caller = callerOf(context);
  const header = request.headers[IDEMPOTENCY_KEY_HEADER];
  const key = Array.isArray(header) ? header[0] : header;
  if (key === undefined) return caller;
  checkIdempotencyKey(key);
  return { ...caller, idempotencyKey: key };
});

export const IdempotentCaller = (): ParameterDecorator =>
  documentedParam(IdempotentCallerParam(), [
    ...CALLER_ERRORS,
    { VALIDATION_FAILED: `the \`Idempotency-Key\` header is not ${IDEMPOTENCY_KEY_FORMAT}` },
  ]);

/** Documents the header on a route that honours it. */
export const IdempotencyKeyHeader = (): MethodDecorator =>
  applyDecorators(
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description:
        'A uuid per operation; required in production. A retry with the same key answers the original response.',
    }),
  );
