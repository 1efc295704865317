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
  /** KEYLESS_INQUIRY_PER_CODE_PER_MINUTE: per paymentCode (and environment), from every address together. */
  perCodePerMinute: number;
  /** KEYLESS_INQUIRY_GLOBAL_PER_MINUTE: every keyless inquiry of the replica together. */
  globalPerMinute: number;
  /** KEYLESS_INQUIRY_PRODUCTION: false, a keyless inquiry of production is refused 401 as without the feature. */
  production: boolean;
}

/** The header the provider's plugins name the environment with when they call the inquiry without a key. */
export const ENVIRONMENT_HEADER = 'x-environment';

type KeylessRequest = FastifyRequest & {
  user?: unknown;
  keylessInquiry?: true;
  params?: { reference?: string };
};

/** The one-minute windows a keyless inquiry takes a slot of, in this order: each refusal says which one. */
interface Windows {
  address: FixedWindowLimiter;
  all: FixedWindowLimiter;
  code: FixedWindowLimiter;
}

/**
 * The inquiry's guard. A request with an Authorization header, or without X-Environment, or with the keyless
 * inquiry turned off (for production alone: KEYLESS_INQUIRY_PRODUCTION=false), is checked as on every merchant
 * route (PrivateKeyGuard). Otherwise it goes on without a key, marked as keyless, once its client address, the
 * replica as a whole and the paymentCode asked for each have a slot left in their one-minute windows: the slots
 * are taken before the lookup, so a guesser pays for every attempt, found or not, and many addresses together
 * can neither walk the codes faster than the global window nor try one code more often than its own.
 */
@Injectable()
export class KeylessInquiryGuard implements CanActivate {
  private readonly windows: Windows | null;

  constructor(
    @Inject(KEYLESS_INQUIRY_OPTIONS) private readonly options: KeylessInquiryOptions,
    private readonly keyed: PrivateKeyGuard,
  ) {
    this.windows = options.enabled
      ? {
          address: new FixedWindowLimiter(options.perMinute, 60_000),
          all: new FixedWindowLimiter(options.globalPerMinute, 60_000),
          code: new FixedWindowLimiter(options.perCodePerMinute, 60_000),
        }
      : null;
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<KeylessRequest>();
    const environment = request.headers[ENVIRONMENT_HEADER];
    const keyless =
      this.windows !== null &&
      request.headers.authorization === undefined &&
      environment !== undefined &&
      (this.options.production || environment !== 'production');
    if (!keyless) return this.keyed.canActivate(context);
    const now = Date.now();
    const w = this.windows!;
    const byAddress = w.address.take(clientAddress(request), now);
    if (byAddress) {
      throw rateLimited('Too many inquiries without a key from this address; wait before trying again', byAddress);
    }
    const overall = w.all.take('*', now);
    if (overall) throw rateLimited('Too many inquiries without a key; wait before trying again', overall);
    const code = `${String(environment).slice(0, 16)}:${String(request.params?.reference ?? '').slice(0, 255)}`;
    const byCode = w.code.take(code, now);
    if (byCode)
      throw rateLimited('Too many inquiries without a key for this payment; wait before trying again', byCode);
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
