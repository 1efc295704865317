import { DataSource } from 'typeorm';
import { ManualClock } from '@app/clock';
import { DashboardPruneLoop } from '../../apps/gateway/src/dashboard/dashboard-prune.loop';
import { TestStack } from '../support/stack';
import { cookieOf, DashboardClient, fromDashboard, PASSWORD } from './dashboard-client';

describe('dashboard sign-in and sessions (gateway, real Postgres)', () => {
  let stack: TestStack;
  let merchant: string;
  const clock = new ManualClock(new Date());

  beforeAll(async () => {
    stack = await TestStack.start({
      gateway: false,
      env: { DASHBOARD_LOCKOUT_FAILURES: '3', DASHBOARD_SESSION_IDLE_MINUTES: '30', DASHBOARD_SESSION_MAX_HOURS: '12' },
    });
    // The gateway's own clock is the test's: sessions expire and codes change when the test moves it.
    await stack.startGateway({}, clock);
    merchant = await stack.merchant();
  });
  afterAll(() => stack.stop());

  it('invite → accept → sign in → the session, with an HttpOnly SameSite=Strict cookie', async () => {
    const email = `Ana.${Date.now()}@Shop.example`;
    const invite = await stack.admin('POST', '/dashboard-users', {
      email,
      memberships: [{ merchantCode: merchant, role: 'owner' }],
    });
    expect(invite.status).toBe(201);
    expect(invite.body).toMatchObject({
      email: email.toLowerCase(),
      memberships: [{ merchantCode: merchant, role: 'owner' }],
      inviteUrl: expect.stringMatching(/^http:\/\/localhost:\d+\/dashboard\/#\/invite\/[A-Za-z0-9_-]{43}$/),
      // No SMTP_HOST in this stack: mail is off and the operator passes the link on (docs/mail.md).
      mail: 'off',
    });
    const token = invite.body.inviteUrl.split('#/invite/')[1];

    const short = await stack.http('POST', '/dashboard/api/invitations/accept', {
      headers: fromDashboard(stack),
      body: { token, password: 'short' },
    });
    expect(short.status).toBe(400);
    expect(short.body.error).toMatchObject({ code: 'VALIDATION_FAILED', param: 'password' });

    const accepted = await stack.http('POST', '/dashboard/api/invitations/accept', {
      headers: fromDashboard(stack),
      body: { token, password: PASSWORD },
    });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({ email: email.toLowerCase() });
    const again = await stack.http('POST', '/dashboard/api/invitations/accept', {
      headers: fromDashboard(stack),
      body: { token, password: PASSWORD },
    });
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe('NOT_FOUND');

    const client = new DashboardClient(stack);
    const signIn = await client.signIn(email.toUpperCase());
    expect(signIn.status).toBe(200);
    const setCookie = signIn.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/^pp_dash=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict$/);
    expect(signIn.body).toMatchObject({
      user: { email: email.toLowerCase(), totpEnabled: false },
      memberships: [{ merchantCode: merchant, merchantName: `Merchant ${merchant}`, role: 'owner' }],
      csrfToken: expect.any(String),
      expiresAt: expect.any(String),
    });
    expect(signIn.body.memberships[0]).not.toHaveProperty('merchantId');

    const current = await client.call('GET', '/dashboard/api/session');
    expect(current.status).toBe(200);
    expect(current.body).toEqual(signIn.body);
    // At debug level: no invitation token, password, session token or CSRF token in any log line.
    const logs = stack.log('gateway').text();
    for (const secret of [token, PASSWORD, cookieOf(setCookie).split('=')[1], signIn.body.csrfToken]) {
      expect(logs).not.toContain(secret);
    }
  });

  it('an expired invitation (72 hours) is refused', async () => {
    const invite = await stack.admin('POST', '/dashboard-users', {
      email: `late${Date.now()}@shop.example`,
      memberships: [{ merchantCode: merchant, role: 'support' }],
    });
    clock.advance(72 * 3600_000 + 1000);
    const token = invite.body.inviteUrl.split('#/invite/')[1];
    const r = await stack.http('POST', '/dashboard/api/invitations/accept', {
      headers: fromDashboard(stack),
      body: { token, password: PASSWORD },
    });
    expect(r.status).toBe(404);
  });

  it('wrong credentials answer the same 401 for a known and an unknown email', async () => {
    const { email } = await DashboardClient.invited(stack, [{ merchantCode: merchant, role: 'support' }]);
    const client = new DashboardClient(stack);
    const wrong = await client.signIn(email, 'not the password at all');
    const unknown = await client.signIn(`nobody${Date.now()}@shop.example`, 'not the password at all');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(unknown.body.error.message).toBe(wrong.body.error.message);
    expect(wrong.body.error.code).toBe('AUTH_INVALID');
    expect(wrong.headers.get('set-cookie')).toBeNull();
  });

  it('locks an email out after N failures in the window, the right password too, known or unknown alike', async () => {
    const { email } = await DashboardClient.invited(stack, [{ merchantCode: merchant, role: 'support' }]);
    const unknown = `ghost${Date.now()}@shop.example`;
    const client = new DashboardClient(stack);
    for (const who of [email, unknown]) {
      for (let i = 0; i < 3; i++) expect((await client.signIn(who, 'wrong password!!')).status).toBe(401);
    }
    const locked = await client.signIn(email);
    expect(locked.status).toBe(429);
    expect(locked.body.error.code).toBe('ACCOUNT_LOCKED');
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    const lockedUnknown = await client.signIn(unknown, 'wrong password!!');
    expect(lockedUnknown.status).toBe(429);
    expect(lockedUnknown.body.error).toEqual({ ...locked.body.error, requestId: lockedUnknown.body.error.requestId });
    clock.advance(15 * 60_000 + 1000);
    expect((await client.signIn(email)).status).toBe(200);
  });

  it('a cookie replayed after sign-out is refused; sign-out everywhere ends every session', async () => {
    const { email } = await DashboardClient.invited(stack, [{ merchantCode: merchant, role: 'developer' }]);
    const [a, b, c] = [new DashboardClient(stack), new DashboardClient(stack), new DashboardClient(stack)];
    for (const x of [a, b, c]) expect((await x.signIn(email)).status).toBe(200);

    const out = await a.call('DELETE', '/dashboard/api/session');
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/^pp_dash=; .*Expires=Thu, 01 Jan 1970/);
    const replay = await a.call('GET', '/dashboard/api/session');
    expect(replay.status).toBe(401);
    expect(replay.body.error.code).toBe('AUTH_INVALID');
    expect((await b.call('GET', '/dashboard/api/session')).status).toBe(200);

    expect((await b.call('DELETE', '/dashboard/api/sessions')).status).toBe(204);
    for (const x of [b, c]) expect((await x.call('GET', '/dashboard/api/session')).status).toBe(401);
  });

  it('a change without the CSRF token is refused (403), with a wrong one too', async () => {
    const client = await DashboardClient.signedIn(stack, [{ merchantCode: merchant, role: 'owner' }]);
    const without = await client.call('DELETE', '/dashboard/api/session', { csrf: false });
    expect(without.status).toBe(403);
    expect(without.body.error.code).toBe('CSRF_INVALID');
    const wrong = await client.call('DELETE', '/dashboard/api/session', {
      csrf: false,
      headers: { 'x-csrf-token': 'x'.repeat(43) },
    });
    expect(wrong.status).toBe(403);
    expect((await client.call('GET', '/dashboard/api/session')).status).toBe(200);
    const none = await stack.http('GET', '/dashboard/api/session');
    expect(none.status).toBe(401);
    expect(none.body.error.code).toBe('AUTH_MISSING');
  });

  it('ends a session after the idle time, and after the absolute time however active', async () => {
    const idle = await DashboardClient.signedIn(stack, [{ merchantCode: merchant, role: 'support' }]);
    clock.advance(29 * 60_000);
    expect((await idle.call('GET', '/dashboard/api/session')).status).toBe(200);
    clock.advance(29 * 60_000);
    expect((await idle.call('GET', '/dashboard/api/session')).status).toBe(200);
    clock.advance(30 * 60_000 + 1000);
    expect((await idle.call('GET', '/dashboard/api/session')).status).toBe(401);

    const busy = await DashboardClient.signedIn(stack, [{ merchantCode: merchant, role: 'support' }]);
    for (let hour = 0; hour < 12; hour++) {
      expect((await busy.call('GET', '/dashboard/api/session')).status).toBe(200);
      for (let i = 0; i < 3; i++) {
        clock.advance(20 * 60_000);
        expect((await busy.call('GET', '/dashboard/api/session')).status).toBe(hour === 11 && i === 2 ? 401 : 200);
      }
    }
  });

  it('failed sign-ins count per client address too: spraying many emails meets 429 RATE_LIMITED', async () => {
    const spray = await TestStack.start({ gateway: false, services: [], env: { AUTH_FAILURES_PER_MINUTE: '4' } });
    try {
      await spray.startGateway();
      const answers: number[] = [];
      for (let i = 0; i < 6; i++) {
        const r = await spray.http('POST', '/dashboard/api/session', {
          headers: fromDashboard(spray),
          body: { email: `spray${i}@shop.example`, password: 'not the password' },
        });
        answers.push(r.status);
      }
      expect(answers).toEqual([401, 401, 401, 401, 429, 429]);
    } finally {
      await spray.stop();
    }
  });

  it('removing a user through the admin API ends their sessions', async () => {
    const { email, id } = await DashboardClient.invited(stack, [{ merchantCode: merchant, role: 'developer' }]);
    const client = new DashboardClient(stack);
    await client.signIn(email);
    const list = await stack.admin('GET', '/dashboard-users');
    expect(list.body.find((u: { id: string }) => u.id === id)).toMatchObject({ email, passwordSet: true });
    expect((await stack.admin('DELETE', `/dashboard-users/${id}`)).status).toBe(204);
    expect((await client.call('GET', '/dashboard/api/session')).status).toBe(401);
    expect((await stack.admin('DELETE', `/dashboard-users/${id}`)).status).toBe(404);
  });
  it('the prune loop deletes sessions a day after they end and failed sign-ins once no window counts them', async () => {
    const db = stack.gateway!.get(DataSource);
    const loop = stack.gateway!.get(DashboardPruneLoop);
    const rowsOf = async (email: string) => {
      const sessions: { n: number }[] = await db.query(
        `SELECT count(*)::int AS n FROM dashboard_sessions s JOIN dashboard_users u ON u.id = s.user_id WHERE u.email = $1`,
        [email],
      );
      const failures: { n: number }[] = await db.query(
        'SELECT count(*)::int AS n FROM dashboard_login_failures WHERE email = $1',
        [email],
      );
      return { sessions: sessions[0].n, failures: failures[0].n };
    };
    const memberships = [{ merchantCode: merchant, role: 'support' as const }];
    // Signed out now; left idle (over 30 minutes from now); and a failed sign-in of a third user now.
    const out = await DashboardClient.invited(stack, memberships);
    const outClient = new DashboardClient(stack);
    expect((await outClient.signIn(out.email)).status).toBe(200);
    expect((await outClient.call('DELETE', '/dashboard/api/session')).status).toBe(204);
    const idle = await DashboardClient.invited(stack, memberships);
    expect((await new DashboardClient(stack).signIn(idle.email)).status).toBe(200);
    const failed = await DashboardClient.invited(stack, memberships);
    expect((await new DashboardClient(stack).signIn(failed.email, 'wrong password!!')).status).toBe(401);

    await loop.sweep();
    expect(await rowsOf(out.email)).toEqual({ sessions: 1, failures: 0 });
    expect(await rowsOf(failed.email)).toEqual({ sessions: 0, failures: 1 });

    // The lockout window (15 minutes) has passed: the failure no longer counts, and goes.
    clock.advance(15 * 60_000 - 1000);
    await loop.sweep();
    expect((await rowsOf(failed.email)).failures).toBe(1);
    clock.advance(1000);
    await loop.sweep();
    expect((await rowsOf(failed.email)).failures).toBe(0);

    // A day after the sign-out the signed-out session goes; the idle one ended 30 minutes later and stays.
    clock.advance(24 * 3600_000 - 15 * 60_000 - 1000);
    await loop.sweep();
    expect((await rowsOf(out.email)).sessions).toBe(1);
    clock.advance(1000);
    const live = await DashboardClient.signedIn(stack, memberships);
    await loop.sweep();
    expect((await rowsOf(out.email)).sessions).toBe(0);
    expect((await rowsOf(idle.email)).sessions).toBe(1);
    clock.advance(29 * 60_000);
    expect((await live.call('GET', '/dashboard/api/session')).status).toBe(200);
    clock.advance(60_000);
    await loop.sweep();
    expect((await rowsOf(idle.email)).sessions).toBe(0);
    // A session in use is never touched.
    expect((await live.call('GET', '/dashboard/api/session')).status).toBe(200);
  });
});
