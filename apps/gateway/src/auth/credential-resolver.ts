import type { FastifyRequest } from 'fastify';
import type { Permission } from './permission';
import type { Principal } from './principal';

/**
 * The credential a request may carry instead of an API key (the dashboard's session cookie): the port
 * PrivateKeyGuard asks, so authentication never knows how a session is kept. The dashboard module provides it
 * (dashboard/session-principal.ts); the gateway's root module binds it (AuthModule.forRoot).
 */
export interface CredentialResolver {
  /** The credential the request carries, or undefined when it carries none (then an API key is required). */
  credentialOf(request: Pick<FastifyRequest, 'headers'>): string | undefined;
  /** Who the credential is for the route's declared permission; throws the DomainError that refuses it. */
  principalOf(
    request: Pick<FastifyRequest, 'method' | 'headers'>,
    credential: string,
    permission: Permission | undefined,
  ): Promise<Principal>;
}

export const CREDENTIAL_RESOLVER = Symbol('CREDENTIAL_RESOLVER');

/** Recognizes a validly signed SDK client token, so one on a server route is 403, not 401 (sdk/). */
export interface ClientTokenCheck {
  isClientToken(credential: string): Promise<boolean>;
}

export const CLIENT_TOKEN_CHECK = Symbol('CLIENT_TOKEN_CHECK');
