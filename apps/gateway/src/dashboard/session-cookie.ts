import { parse, serialize } from 'cookie';
import type { FastifyRequest } from 'fastify';

/** The dashboard session cookie's name (contract: pp_dash). */
export const SESSION_COOKIE = 'pp_dash';

/** The session token a request's cookie carries, if any (the `cookie` package parses the header). */
export function sessionTokenOf(request: Pick<FastifyRequest, 'headers'>): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  return parse(header)[SESSION_COOKIE];
}

/**
 * The session cookie: HttpOnly (no script reads it), SameSite=Strict (no other site's page sends it), Path=/
 * (the REST API takes it too), Secure unless DASHBOARD_INSECURE_COOKIE. No Max-Age: the server ends the session.
 */
export const sessionCookie = (token: string, secure: boolean): string =>
  serialize(SESSION_COOKIE, token, { httpOnly: true, sameSite: 'strict', path: '/', secure });

/** The cookie that removes the session cookie from the browser. */
export const clearedSessionCookie = (secure: boolean): string =>
  serialize(SESSION_COOKIE, '', { httpOnly: true, sameSite: 'strict', path: '/', secure, expires: new Date(0) });
