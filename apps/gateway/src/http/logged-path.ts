import type { FastifyRequest } from 'fastify';

/** What a keyless credential in a logged path reads as. */
export const REDACTED = '[redacted]';

/**
 * The routes whose path carries a keyless credential (whoever holds the value acts with it, no key needed),
 * and which of the route's parameters it is: the 3DS and APM session ids, a payment link's id (its checkout
 * URL, which lets anyone pay), the keyless inquiry's reference, and the dashboard page under any path (an
 * invitation link opened without its `#` carries its token there).
 */
export const CREDENTIALS_IN_PATH: Readonly<Record<string, readonly string[]>> = {
  '/v1/3ds/challenge/:sessionId': ['sessionId'],
  '/v1/apm/:sessionId': ['sessionId'],
  '/v1/sandbox/3ds/:sessionId': ['sessionId'],
  '/checkout/:id': ['id'],
  '/v1/checkout/:id/pay': ['id'],
  '/v1/checkout/:id/resume': ['id'],
  '/v1/payment/inquiry/:reference': ['reference'],
  '/dashboard/*': ['*'],
};

type Logged = Pick<FastifyRequest, 'url' | 'params'> & { routeOptions?: { url?: string } };

/**
 * The path as the access log and a request's trace span show it, the one place both take it from: never a
 * query string, and a credential of CREDENTIALS_IN_PATH as `[redacted]`. A matched route's path is rebuilt
 * from the route and its parameters (however the client spelled it); a path no route matched keeps its first
 * two segments only, since it could be a credential route misspelled.
 */
export function loggedPath(request: Logged): string {
  const path = request.url.split('?')[0];
  const route = request.routeOptions?.url;
  if (!route) return unmatched(path);
  const secret = CREDENTIALS_IN_PATH[route];
  if (!secret) return path;
  const params = (request.params ?? {}) as Record<string, unknown>;
  return route
    .split('/')
    .map((segment) => {
      if (segment === '*') return REDACTED;
      if (!segment.startsWith(':')) return segment;
      const name = segment.slice(1);
      return secret.includes(name) ? REDACTED : encodeURIComponent(String(params[name] ?? ''));
    })
    .join('/');
}

function unmatched(path: string): string {
  const segments = path.split('/');
  return segments.map((s, i) => (i <= 2 || s === '' ? s : REDACTED)).join('/');
}
