import { loadGatewayConfig } from '../config';
import { dashboardOptionsOf } from './dashboard-options';
import { clearedSessionCookie, SESSION_COOKIE, sessionCookie, sessionTokenOf } from './session-cookie';
import { csrfTokenOf, sameSecret } from './secrets';
import { newToken, tokenHash } from '../auth/tokens';

describe('the dashboard session cookie', () => {
  it('is HttpOnly, SameSite=Strict, Path=/, and Secure unless DASHBOARD_INSECURE_COOKIE says otherwise', () => {
    expect(sessionCookie('t0k', true)).toBe('pp_dash=t0k; Path=/; HttpOnly; Secure; SameSite=Strict');
    expect(sessionCookie('t0k', false)).toBe('pp_dash=t0k; Path=/; HttpOnly; SameSite=Strict');
    expect(clearedSessionCookie(true)).toMatch(/^pp_dash=; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly/);
    const secure = (env: Record<string, string>) => dashboardOptionsOf(loadGatewayConfig(env)).secureCookie;
    // Whatever NODE_ENV says (a deployment that leaves it out included), the cookie is Secure by default.
    expect([secure({}), secure({ NODE_ENV: 'development' }), secure({ NODE_ENV: 'test' })]).toEqual([true, true, true]);
    expect(secure({ NODE_ENV: 'development', DASHBOARD_INSECURE_COOKIE: 'true' })).toBe(false);
    expect(secure({ NODE_ENV: 'test', DASHBOARD_INSECURE_COOKIE: 'false' })).toBe(true);
  });

  it('a production start refuses DASHBOARD_INSECURE_COOKIE', () => {
    expect(() => loadGatewayConfig({ NODE_ENV: 'production', DASHBOARD_INSECURE_COOKIE: 'true' })).toThrow(
      /DASHBOARD_INSECURE_COOKIE must not be true in production/,
    );
  });

  it('is read from the Cookie header among others', () => {
    expect(sessionTokenOf({ headers: { cookie: `a=1; ${SESSION_COOKIE}=abc; b=2` } })).toBe('abc');
    expect(sessionTokenOf({ headers: {} })).toBeUndefined();
  });

  it('carries a 256-bit token stored only as its hash; the CSRF token is derived and differs per session', () => {
    const [a, b] = [newToken(), newToken()];
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(tokenHash(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(tokenHash(a)).not.toContain(a);
    expect(csrfTokenOf(a)).toBe(csrfTokenOf(a));
    expect(csrfTokenOf(a)).not.toBe(csrfTokenOf(b));
    expect(sameSecret(csrfTokenOf(a), csrfTokenOf(a))).toBe(true);
    expect(sameSecret(csrfTokenOf(a), csrfTokenOf(b))).toBe(false);
  });
});
