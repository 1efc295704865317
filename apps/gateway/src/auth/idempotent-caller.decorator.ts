import { createHash } from 'node:crypto';
import { applyDecorators, createParamDecorator, ExecutionContext } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { CallerContext, IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_FORMAT } from '@app/contracts';
import { checkIdempotencyKey } from '@app/idempotency';
import { CALLER_ERRORS, callerOf, documentedParam } from './caller.decorator';
import type { Principal } from './principal';

/**
 * The key a request's Idempotency-Key is kept under, so that a replay is authorized like the original: an API
 * key's requests keep the header's value (every private key of a merchant may call every route and read every
 * answer), a dashboard session's get a key of their own user (`dashboard:` and a SHA-256 of user and header).
 * A session that sends someone else's Idempotency-Key makes a request of its own, checked against its role,
 * and never meets the stored answer of an owner or an API key (a webhook endpoint's signing secret).
 */
export function idempotencyKeyOf(principal: Pick<Principal, 'dashboard'> | undefined, header: string): string {
  if (!principal?.dashboard) return header;
  const scoped = createHash('sha256').update(`${principal.dashboard.userId}\n${header}`).digest('hex');
  return `dashboard:${scoped}`;
}

/**
 * `@IdempotentCaller() ctx` on a route that honours an Idempotency-Key: the caller as `@Caller()` resolves it, plus the
 * Idempotency-Key header (1-255 printable ASCII, else 400) as `ctx.idempotencyKey`, scoped to a dashboard
 * session's user (idempotencyKeyOf). Whether a key is required (production) is the service's rule.
 */
const IdempotentCallerParam = createParamDecorator((_data: unknown, context: ExecutionContext): CallerContext => {
  const request = context.switchToHttp().getRequest<FastifyRequest & { user?: Principal }>();
  const caller = callerOf(context);
  const header = request.headers[IDEMPOTENCY_KEY_HEADER];
  const key = Array.isArray(header) ? header[0] : header;
  if (key === undefined) return caller;
  checkIdempotencyKey(key);
  return { ...caller, idempotencyKey: idempotencyKeyOf(request.user, key) };
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
