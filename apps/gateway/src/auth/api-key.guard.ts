import { ExecutionContext, Inject, Injectable, Optional } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { DomainError } from '@app/errors';
import { rateLimited } from '../http/rate-limited';
import { AuthFailures } from './auth-failures';
import { CLIENT_TOKEN_CHECK, ClientTokenCheck, CREDENTIAL_RESOLVER, CredentialResolver } from './credential-resolver';
import { Permission, PERMISSION_METADATA } from './permission';
import { Principal, unknownKey } from './principal';
import { RateLimiter } from './rate-limiter';

export const RATE_LIMITER = Symbol('RATE_LIMITER');

/**
 * Private keys only: 401 AUTH_MISSING without a credential, 401 AUTH_INVALID for another
 * scheme or a bad key, 403 AUTH_INSUFFICIENT_SCOPE for a public key. Keys in the query string or body are
 * never accepted: only the header is looked at. A dashboard session cookie instead of a key is the other
 * credential (asked through the CredentialResolver port, which the dashboard provides), allowed what the route's declared permission lets the user's
 * role do; a request carrying both is refused (400), so which one acts is never a guess.
 */
@Injectable()
export class PrivateKeyGuard extends AuthGuard('bearer') {
  constructor(
    @Inject(RATE_LIMITER) private readonly limiter: RateLimiter,
    private readonly failures: AuthFailures,
    private readonly reflector: Reflector,
    @Inject(CREDENTIAL_RESOLVER) private readonly credentials: CredentialResolver,
    @Optional() @Inject(CLIENT_TOKEN_CHECK) private readonly clientTokens?: ClientTokenCheck,
  ) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest & { user?: Principal }>();
    await this.failures.check(request, () => this.authenticate(context, request));
    const over = this.limiter.take(request.user!.keyId, Date.now());
    if (over) throw rateLimited('Too many requests for this key', over);
    return true;
  }

  private async authenticate(context: ExecutionContext, request: FastifyRequest & { user?: Principal }) {
    const sessionToken = this.credentials.credentialOf(request);
    if (sessionToken !== undefined) {
      if (request.headers.authorization !== undefined) {
        throw DomainError.validation(
          'Send either an API key or the dashboard session cookie, not both',
          'Authorization',
        );
      }
      const permission = this.reflector.get<Permission | undefined>(PERMISSION_METADATA, context.getHandler());
      request.user = await this.credentials.principalOf(request, sessionToken, permission);
      return;
    }
    const header = (request.headers.authorization ?? '').trim();
    if (!header || /^bearer$/i.test(header))
      throw new DomainError('AUTH_MISSING', 'Authorization header with a Bearer key is required');
    if (!/^bearer\s+\S+$/i.test(header))
      throw new DomainError('AUTH_INVALID', 'Use the Bearer scheme with one API key');
    if (this.clientTokens && (await this.clientTokens.isClientToken(header.replace(/^bearer\s+/i, '')))) {
      throw new DomainError('AUTH_INSUFFICIENT_SCOPE', 'A client token only authorizes the browser SDK routes');
    }
    // passport-http-bearer would also read access_token from the query or body; hide those from it.
    const query = request.query as Record<string, unknown> | undefined;
    const body = request.body as Record<string, unknown> | undefined;
    if (query && 'access_token' in query) delete query.access_token;
    if (body && typeof body === 'object' && 'access_token' in body) delete body.access_token;

    await super.canActivate(context);
    const principal = request.user!;
    if (principal.type !== 'private') {
      throw new DomainError('AUTH_INSUFFICIENT_SCOPE', 'A public key cannot call server routes; use a private key');
    }
  }

  override handleRequest<T>(err: unknown, user: T): T {
    if (err) throw err;
    if (!user) throw unknownKey();
    return user;
  }
}
