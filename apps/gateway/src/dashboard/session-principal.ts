import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ENVIRONMENTS } from '@app/contracts';
import { DomainError } from '@app/errors';
import type { CredentialResolver } from '../auth/credential-resolver';
import { Permission, roleAllows } from '../auth/permission';
import { Principal } from '../auth/principal';
import { DashboardSession, DashboardSessionsService } from './dashboard-sessions.service';
import { sameSecret } from './secrets';
import { sessionTokenOf } from './session-cookie';

export const MERCHANT_HEADER = 'x-dashboard-merchant';
export const ENVIRONMENT_HEADER = 'x-dashboard-environment';
export const CSRF_HEADER = 'x-csrf-token';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The session of a cookie's token, or 401 AUTH_INVALID once it has ended (signed out, expired, removed). */
export async function liveSession(sessions: DashboardSessionsService, token: string): Promise<DashboardSession> {
  const session = await sessions.authenticate(token);
  if (!session) throw new DomainError('AUTH_INVALID', 'The dashboard session has ended; sign in again');
  return session;
}

/**
 * A change made with the session cookie must echo the session's CSRF token in X-CSRF-Token (403 CSRF_INVALID):
 * a page of another origin can make the browser send the cookie, but cannot read the token.
 */
export function checkCsrf(request: Pick<FastifyRequest, 'method' | 'headers'>, session: DashboardSession): void {
  if (SAFE_METHODS.has(request.method)) return;
  const sent = request.headers[CSRF_HEADER];
  if (typeof sent !== 'string' || !sameSecret(sent, session.csrfToken)) {
    throw new DomainError('CSRF_INVALID', 'Send the session’s csrfToken in the X-CSRF-Token header', 'X-CSRF-Token');
  }
}

/**
 * The REST API's dashboard credential: the session cookie plus X-Dashboard-Merchant and X-Dashboard-Environment
 * make the caller that merchant in that environment, as a private key of theirs would, limited to what the
 * user's role on that merchant allows for the route's declared permission (none declared: refused). The
 * gateway's CredentialResolver: PrivateKeyGuard asks it about every request without an API key.
 */
@Injectable()
export class SessionPrincipals implements CredentialResolver {
  constructor(private readonly sessions: DashboardSessionsService) {}

  credentialOf(request: Pick<FastifyRequest, 'headers'>): string | undefined {
    return sessionTokenOf(request);
  }

  async principalOf(
    request: Pick<FastifyRequest, 'method' | 'headers'>,
    token: string,
    permission: Permission | undefined,
  ): Promise<Principal> {
    const session = await liveSession(this.sessions, token);
    checkCsrf(request, session);
    const merchantCode = request.headers[MERCHANT_HEADER];
    if (typeof merchantCode !== 'string' || !merchantCode) {
      throw DomainError.validation('X-Dashboard-Merchant must name the merchant', 'X-Dashboard-Merchant');
    }
    const environment = ENVIRONMENTS.find((e) => e === request.headers[ENVIRONMENT_HEADER]);
    if (!environment) {
      throw DomainError.validation(
        `X-Dashboard-Environment must be one of ${ENVIRONMENTS.join(', ')}`,
        'X-Dashboard-Environment',
      );
    }
    const membership = session.memberships.find((m) => m.merchantCode === merchantCode);
    if (!membership) {
      throw new DomainError(
        'MERCHANT_MISMATCH',
        `You are not a member of merchant ${merchantCode}`,
        'X-Dashboard-Merchant',
      );
    }
    if (!roleAllows(membership.role, permission)) {
      throw new DomainError('AUTH_INSUFFICIENT_SCOPE', `The ${membership.role} role may not do this`);
    }
    return {
      keyId: `dashboard:${session.user.id}`,
      type: 'private',
      environment,
      merchantCodes: [merchantCode],
      merchantIds: { [merchantCode]: membership.merchantId },
      dashboard: { userId: session.user.id, email: session.user.email, sessionId: session.id, role: membership.role },
    };
  }
}
