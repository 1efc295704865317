import {
  applyDecorators,
  CallHandler,
  ExecutionContext,
  Inject,
  Injectable,
  NestInterceptor,
  SetMetadata,
  UseInterceptors,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { Logger } from 'pino';
import { from, Observable, switchMap } from 'rxjs';
import { Clock } from '@app/clock';
import { LOGGER } from '@app/observability';
import { IDEMPOTENCY_KEY_HEADER } from '@app/contracts';
import type { Principal } from '../auth/principal';
import { AuditActor, AuditAction, DashboardAuditRepository } from './dashboard-audit.repository';
import { clientAddress } from '../http/client-address';

const AUDITED = 'audit:action';

/**
 * The route's successful calls are written to the merchant's audit log (docs/api.md, Audit log) as `action`,
 * by the AuditInterceptor: who (the dashboard user or the API key id), on which merchant, what (the route's
 * `:id` or the answer's `id`, the amount or role sent), from which address, when. The interceptor is the
 * route's own, not global: a route with no interceptor skips Nest's interceptor chain (rxjs and two
 * `AsyncResource.bind` a request), about 7 % of the gateway's CPU per purchase (docs/performance.md).
 */
export const Audited = (action: AuditAction): MethodDecorator =>
  applyDecorators(SetMetadata(AUDITED, action), UseInterceptors(AuditInterceptor));

/** Body fields an audit event keeps: what says what changed, never a secret or a card. */
const DETAIL_FIELDS = ['amount', 'currency', 'role', 'email', 'url', 'name', 'type', 'reason', 'status'] as const;

/** The dashboard session a dashboard route's guard sets on the request (dashboard/session.guard.ts), as read here. */
interface SessionActor {
  id: string;
  user: { id: string; email: string };
}

type AuditedRequest = FastifyRequest & { user?: Principal; dashboardSession?: SessionActor };

/** The requests an AuditInterceptor has taken on. */
const auditing = new WeakSet<object>();

@Injectable()
export class AuditInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly audit: DashboardAuditRepository,
    private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const action = this.reflector.get<AuditAction | undefined>(AUDITED, context.getHandler());
    if (!action) return next.handle();
    const request = context.switchToHttp().getRequest<AuditedRequest>();
    // Registered twice (globally as well as on the route), it still writes one event.
    if (auditing.has(request)) return next.handle();
    auditing.add(request);
    // The answer waits for its event: an owner who reads the log after a change sees it.
    return next.handle().pipe(switchMap((result) => from(this.write(action, request, result).then(() => result))));
  }

  private async write(action: AuditAction, request: AuditedRequest, result: unknown): Promise<void> {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const query = (request.query ?? {}) as Record<string, unknown>;
    const params = (request.params ?? {}) as Record<string, string>;
    const answered = (result ?? {}) as Record<string, unknown>;
    const actor = actorOf(request);
    const merchantCodes = merchantsOf(request, body, query, params, answered);
    if (!actor || !merchantCodes.length) {
      this.logger.error({ action }, 'An audited change has no actor or merchant: not written to the audit log');
      return;
    }
    const detail: Record<string, unknown> = {};
    for (const f of DETAIL_FIELDS) if (body[f] !== undefined && typeof body[f] !== 'object') detail[f] = body[f];
    if (typeof body.amount === 'object' && body.amount !== null) detail.amount = body.amount;
    for (const merchantCode of merchantCodes) {
      await this.audit.recordChange({
        type: action,
        actor,
        merchantCode,
        environment: request.user?.environment ?? environmentOf(body, query, answered),
        target: params.id ?? (typeof answered.id === 'string' ? answered.id : null),
        detail,
        clientAddress: clientAddress(request),
        idempotencyKey: idempotencyKeyOf(request),
        at: this.clock.now(),
      });
    }
  }
}

function actorOf(request: AuditedRequest): AuditActor | null {
  const session = request.dashboardSession;
  const dashboard = request.user?.dashboard;
  if (dashboard) {
    return { channel: 'dashboard', userId: dashboard.userId, email: dashboard.email, sessionId: dashboard.sessionId };
  }
  if (request.user) return { channel: 'api', apiKeyId: request.user.keyId };
  if (session)
    return { channel: 'dashboard', userId: session.user.id, email: session.user.email, sessionId: session.id };
  if (request.headers.authorization && (request.routeOptions?.url ?? '').startsWith('/v1/admin/')) {
    return { channel: 'admin' };
  }
  return null;
}

/** The merchants the change is on: the one named, the key's only one, or those of the key created or revoked. */
function merchantsOf(
  request: AuditedRequest,
  body: Record<string, unknown>,
  query: Record<string, unknown>,
  params: Record<string, string>,
  answered: Record<string, unknown>,
): string[] {
  const named = body.merchantCode ?? query.merchantCode ?? params.merchantCode;
  if (typeof named === 'string' && named) return [named];
  if (request.user) return request.user.merchantCodes.length === 1 ? request.user.merchantCodes : [];
  const codes = Array.isArray(body.merchantCodes) ? body.merchantCodes : answered.merchantCodes;
  return Array.isArray(codes) ? codes.filter((c): c is string => typeof c === 'string') : [];
}

function environmentOf(...sources: Record<string, unknown>[]) {
  const e = sources.map((x) => x.environment).find((x) => x !== undefined);
  return e === 'sandbox' || e === 'production' ? e : null;
}

function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const header = request.headers[IDEMPOTENCY_KEY_HEADER];
  return (Array.isArray(header) ? header[0] : header) || undefined;
}
