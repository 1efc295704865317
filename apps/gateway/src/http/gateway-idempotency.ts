import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { IDEMPOTENCY_KEY_FORMAT, IDEMPOTENCY_KEY_HEADER } from '@app/contracts';
import { checkIdempotencyKey, SealedIdempotency } from '@app/idempotency';
import { documentedParam } from '../auth/caller.decorator';

/**
 * The key scope of the operators' API: no merchant owns an admin request. No merchant code can take this value
 * (merchant codes are letters, digits, _ and -), so an operator's key never meets a merchant's.
 */
export const ADMIN_KEY_SCOPE = { merchantCode: '*admin', environment: 'production' } as const;

/** The Idempotency-Key header (1-255 printable ASCII, else 400), or undefined: for routes without a merchant caller. */
const IdempotencyKeyParam = createParamDecorator((_data: unknown, context: ExecutionContext): string | undefined => {
  const header = context.switchToHttp().getRequest<FastifyRequest>().headers[IDEMPOTENCY_KEY_HEADER];
  const key = Array.isArray(header) ? header[0] : header;
  checkIdempotencyKey(key);
  return key;
});

export const IdempotencyKey = (): ParameterDecorator =>
  documentedParam(IdempotencyKeyParam(), [
    { VALIDATION_FAILED: `the \`Idempotency-Key\` header is not ${IDEMPOTENCY_KEY_FORMAT}` },
  ]);

/**
 * The gateway's own changes (the sandbox clock, the admin API, dashboard keys and users) under an
 * Idempotency-Key: the shared library's sealed-answer runner (@app/idempotency SealedIdempotency), with the
 * gateway's lease (gateway.module.ts).
 */
export class GatewayIdempotency extends SealedIdempotency {}
