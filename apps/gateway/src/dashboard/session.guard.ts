import {
  applyDecorators,
  CanActivate,
  createParamDecorator,
  ExecutionContext,
  Injectable,
  UseGuards,
} from '@nestjs/common';
import { ApiCookieAuth } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { DomainError } from '@app/errors';
import { AuthFailures } from '../auth/auth-failures';
import type { Role } from '../auth/permission';
import { DashboardSession, DashboardSessionsService } from './dashboard-sessions.service';
import { checkCsrf, liveSession } from './session-principal';
import { sessionTokenOf } from './session-cookie';

type SessionRequest = FastifyRequest & { dashboardSession?: DashboardSession };

/**
 * The dashboard's own routes: the session cookie (401 AUTH_MISSING without it, AUTH_INVALID once the session
 * has ended) and, on a change, its CSRF token (403 CSRF_INVALID). Failures count per client address like a bad key.
 */
@Injectable()
export class DashboardSessionGuard implements CanActivate {
  constructor(
    private readonly sessions: DashboardSessionsService,
    private readonly failures: AuthFailures,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<SessionRequest>();
    const token = sessionTokenOf(request);
    if (token === undefined) throw new DomainError('AUTH_MISSING', 'Sign in to the dashboard first');
    const session = await this.failures.check(request, () => liveSession(this.sessions, token));
    checkCsrf(request, session);
    request.dashboardSession = session;
    return true;
  }
}

/** A dashboard route that needs a signed-in user, documented with its cookie and its error codes. */
export const SessionRoute = (): MethodDecorator & ClassDecorator =>
  applyDecorators(
    UseGuards(DashboardSessionGuard),
    // Its error codes (401, CSRF_INVALID on changes, 429) follow from the security scheme: openapi-errors.ts.
    ApiCookieAuth('dashboardSession'),
  );

/** `@CurrentSession() session: DashboardSession` on a `@SessionRoute()`. */
export const CurrentSession = createParamDecorator(
  (_data: unknown, context: ExecutionContext): DashboardSession =>
    context.switchToHttp().getRequest<SessionRequest>().dashboardSession!,
);

/** The user's role on the merchant must be `role`: 403 MERCHANT_MISMATCH when not a member, else AUTH_INSUFFICIENT_SCOPE. */
export function requireRole(session: DashboardSession, merchantCode: string, role: Role): void {
  const membership = session.memberships.find((m) => m.merchantCode === merchantCode);
  if (!membership) {
    throw new DomainError('MERCHANT_MISMATCH', `You are not a member of merchant ${merchantCode}`, 'merchantCode');
  }
  if (membership.role !== role) throw new DomainError('AUTH_INSUFFICIENT_SCOPE', `Only an ${role} may do this`);
}
