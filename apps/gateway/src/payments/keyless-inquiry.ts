import { CanActivate, createParamDecorator, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { CallerContext, ENVIRONMENTS, Environment } from '@app/contracts';
import { DomainError } from '@app/errors';
import { PrivateKeyGuard } from '../auth/api-key.guard';
import { CALLER_ERRORS, callerOf, documentedParam } from '../auth/caller.decorator';
import { FixedWindowLimiter } from '../auth/rate-limiter';
import { clientAddress } from '../http/client-address';
import { rateLimited } from '../http/rate-limited';

export const KEYLESS_INQUIRY_OPTIONS = Symbol('KEYLESS_INQUIRY_OPTIONS');

export interface KeylessInquiryOptions {
  /** Off (KEYLESS_INQUIRY_PER_MINUTE 0), a request without a key is refused 401 as on every merchant route. */
  enabled: boolean;
  /** KEYLESS_INQUIRY_PER_MINUTE, per client address and gateway replica: never unlimited. */
  perMinute: number;
}

/** The header the provider's plugins name the environment with when they call the inquiry without a key. */
export const ENVIRONMENT_HEADER = 'x-environment';

type KeylessRequest = FastifyRequest & { user?: unknown; keylessInquiry?: true };

/**
 * The inquiry's guard. A request with an Authorization header, or without X-Environment, or with the keyless
 * inquiry turned off, is checked as on every merchant route (PrivateKeyGuard). Otherwise it goes on without a
 * key, marked as keyless, once its client address has a slot left in its one-minute window: the slot is taken
 * before the lookup, so a guesser pays for every attempt, found or not.
 */
@Injectable()
export class KeylessInquiryGuard implements CanActivate {
  private readonly window: FixedWindowLimiter | null;

  constructor(
    @Inject(KEYLESS_INQUIRY_OPTIONS) options: KeylessInquiryOptions,
    private readonly keyed: PrivateKeyGuard,
  ) {
    this.window = options.enabled ? new FixedWindowLimiter(options.perMinute, 60_000) : null;
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<KeylessRequest>();
    const keyless =
      this.window !== null &&
      request.headers.authorization === undefined &&
      request.headers[ENVIRONMENT_HEADER] !== undefined;
    if (!keyless) return this.keyed.canActivate(context);
    const over = this.window!.take(clientAddress(request), Date.now());
    if (over) throw rateLimited('Too many inquiries without a key from this address; wait before trying again', over);
    request.keylessInquiry = true;
    return true;
  }
}

/** Who asks: a merchant by its key, or (keyless) nobody, for one environment. */
export type InquiryAccess =
  { keyless: false; caller: CallerContext } | { keyless: true; requestId: string; environment: Environment };

function accessOf(context: ExecutionContext): InquiryAccess {
  const request = context.switchToHttp().getRequest<KeylessRequest>();
  if (request.keylessInquiry !== true) return { keyless: false, caller: callerOf(context) };
  const raw = request.headers[ENVIRONMENT_HEADER];
  const environment = ENVIRONMENTS.find((e) => e === raw);
  if (!environment) {
    throw DomainError.validation(`X-Environment must be one of ${ENVIRONMENTS.join(', ')}`, 'X-Environment');
  }
  return { keyless: true, requestId: String(request.id), environment };
}

const InquiryAccessParam = createParamDecorator((_data: unknown, context: ExecutionContext) => accessOf(context));

/** `@InquiryCaller() access: InquiryAccess` on the route guarded by KeylessInquiryGuard. */
export const InquiryCaller = (): ParameterDecorator => documentedParam(InquiryAccessParam(), CALLER_ERRORS);
