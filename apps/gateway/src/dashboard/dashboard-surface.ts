import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DomainError } from '@app/errors';
import type { AuthFailures } from '../auth/auth-failures';
import { answeredErrorOf } from '../http/answered-error';
import type { DashboardSession } from './dashboard-sessions.service';

/** Where the dashboard's own routes live (sign-in, invitations, TOTP, keys). */
export const DASHBOARD_API_PREFIX = '/dashboard/api/';
const CHANGES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);
/** Answers that are not a guess: the password was right (TOTP_REQUIRED) or the request was refused already. */
const NOT_A_FAILURE = new Set(['TOTP_REQUIRED', 'RATE_LIMITED', 'ACCOUNT_LOCKED']);

type DashboardRequest = FastifyRequest & { dashboardSession?: DashboardSession };

/**
 * Every change sent to the dashboard's routes (POST, PUT, PATCH, DELETE under /dashboard/api/), whatever the
 * route, before any guard, pipe or handler (a Fastify hook on the matched route, after the body limit and the
 * JSON parser have had their say): the sign-in and invitation routes, which take no cookie, and the session
 * routes alike. A route added there later is covered without a line of its own.
 *
 * - It must come from the dashboard's own pages: `Origin` is the gateway's origin (PUBLIC_BASE_URL, or the
 *   origin the request was sent to), or, without `Origin`, `Sec-Fetch-Site` is `same-origin` or `none`; else
 *   403 CSRF_INVALID. A page of another site cannot sign a browser in to someone else's account.
 * - Its body is JSON: `application/json`, else 415 UNSUPPORTED_MEDIA_TYPE (an HTML form cannot send it).
 * - Per client address, a failure (4xx but a right password awaiting its code, or a refusal already counted)
 *   of a request that no session authenticated counts with failed API keys (AUTH_FAILURES_PER_MINUTE); past
 *   the limit, the address's changes here answer 429 RATE_LIMITED with Retry-After before anything is read.
 */
export function installDashboardSurface(
  app: FastifyInstance,
  o: { publicBaseUrl: string; failures: AuthFailures },
): void {
  const ownOrigin = new URL(o.publicBaseUrl).origin;
  app.addHook('preValidation', (request, _reply, done) => {
    if (!isDashboardChange(request)) return done();
    try {
      o.failures.refuseWhenOver(request);
      if (!isSameOrigin(request, ownOrigin)) {
        throw new DomainError(
          'CSRF_INVALID',
          'The dashboard takes changes from its own pages only (Origin or Sec-Fetch-Site says another site)',
          'Origin',
        );
      }
      if (!isJson(request)) throw new DomainError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json');
      done();
    } catch (e) {
      done(e as Error);
    }
  });
  app.addHook('onResponse', (request: DashboardRequest, reply, done) => {
    const status = reply.statusCode;
    const failed = status >= 400 && status < 500 && !NOT_A_FAILURE.has(answeredErrorOf(request) ?? '');
    if (failed && !request.dashboardSession && isDashboardChange(request)) o.failures.fail(request);
    done();
  });
}

/** The matched route (not the path as spelled) is one of the dashboard's, and the method changes something. */
function isDashboardChange(request: FastifyRequest): boolean {
  return CHANGES.has(request.method) && (request.routeOptions?.url ?? '').startsWith(DASHBOARD_API_PREFIX);
}

/** The request comes from a page of this gateway's origin, by the browser's own headers. */
export function isSameOrigin(request: Pick<FastifyRequest, 'headers' | 'protocol'>, ownOrigin: string): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) {
    const site = request.headers['sec-fetch-site'];
    return site === 'same-origin' || site === 'none';
  }
  if (origin === ownOrigin) return true;
  // The origin the request was sent to: its Host header, which a page of another site cannot set.
  return Boolean(request.headers.host) && origin === `${request.protocol}://${request.headers.host}`;
}

/** A body, if any, of a JSON media type; POST, PUT and PATCH must have one (their body is what they change). */
function isJson(request: FastifyRequest): boolean {
  const type = request.headers['content-type'];
  if (type === undefined) return !WITH_BODY.has(request.method);
  const essence = type.split(';')[0].trim().toLowerCase();
  return essence === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(essence);
}
