import { generateSync } from 'otplib';
import { ManualClock } from '@app/clock';
import { TestStack } from '../support/stack';
import { DashboardClient, PASSWORD } from './dashboard-client';

/**
 * Changing the second factor needs the first and the second (docs/dashboard.md, Second factor): a session
 * alone cannot turn TOTP off or swap its secret, a new secret takes over only once a code from it is
 * confirmed, and every change is in the user's audit trail.
 */
describe('dashboard TOTP changes (gateway, real Postgres)', () => {
  let stack: TestStack;
  let merchant: string;
  const clock = new ManualClock(new Date());

  beforeAll(async () => {
    stack = await TestStack.start({ gateway: false, env: { DASHBOARD_LOCKOUT_FAILURES: '5' } });
    await stack.startGateway({}, clock);
    merchant = await stack.merchant();
  });
  afterAll(() => stack.stop());

  /** The code of a secret now; the clock moves a step after each use, since a code is taken once. */
  const codeOf = (secret: string) => generateSync({ secret, epoch: Math.floor(clock.now().getTime() / 1000) });
  const nextStep = () => clock.advance(30_000);
  const signInState = async (email: string, code?: string) =>
    (await new DashboardClient(stack).signIn(email, PASSWORD, code)).status;

  it('set up with the password, confirmed with a code; replaced and removed only with the password and a current code', async () => {
    const { email } = await DashboardClient.invited(stack, [{ merchantCode: merchant, role: 'owner' }]);
    const owner = new DashboardClient(stack);
    await owner.signIn(email);

    // A session alone is not enough: no body, a body without the password, a wrong password.
    expect((await owner.call('POST', '/dashboard/api/totp')).status).toBe(415);
    const bare = await owner.call('POST', '/dashboard/api/totp', { body: {} });
    expect(bare.status).toBe(400);
    expect(bare.body.error.param).toBe('password');
    const wrong = await owner.call('POST', '/dashboard/api/totp', { body: { password: 'not the password!!' } });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toMatchObject({ code: 'AUTH_INVALID', param: 'password' });

    const first = await owner.call('POST', '/dashboard/api/totp', { body: { password: PASSWORD } });
    expect(first.status).toBe(200);
    expect(first.body.otpauthUrl).toContain(`secret=${first.body.secret}`);
    const secret1: string = first.body.secret;
    // Pending: nothing changed yet; sign-in takes the password alone.
    expect((await owner.call('GET', '/dashboard/api/session')).body.user.totpEnabled).toBe(false);
    expect(await signInState(email)).toBe(200);
    expect((await owner.call('POST', '/dashboard/api/totp/confirm', { body: { code: '000000' } })).status).toBe(400);
    expect((await owner.call('POST', '/dashboard/api/totp/confirm', { body: { code: codeOf(secret1) } })).status).toBe(
      204,
    );
    expect((await owner.call('GET', '/dashboard/api/session')).body.user.totpEnabled).toBe(true);
    // The code just used to confirm is not good again.
    expect(await signInState(email)).toBe(401);
    expect(await signInState(email, codeOf(secret1))).toBe(401);
    nextStep();
    expect(await signInState(email, codeOf(secret1))).toBe(200);

    // TOTP on: a new secret needs the current code as well as the password.
    const noCode = await owner.call('POST', '/dashboard/api/totp', { body: { password: PASSWORD } });
    expect(noCode.status).toBe(401);
    expect(noCode.body.error.code).toBe('TOTP_REQUIRED');
    const badCode = await owner.call('POST', '/dashboard/api/totp', { body: { password: PASSWORD, code: '123456' } });
    expect(badCode.body.error).toMatchObject({ code: 'AUTH_INVALID', param: 'code' });
    nextStep();
    const second = await owner.call('POST', '/dashboard/api/totp', {
      body: { password: PASSWORD, code: codeOf(secret1) },
    });
    expect(second.status).toBe(200);
    const secret2: string = second.body.secret;
    // Until a code of the new secret is confirmed, the old one is what sign-in asks for; TOTP stays on.
    nextStep();
    expect(await signInState(email)).toBe(401);
    expect(await signInState(email, codeOf(secret2))).toBe(401);
    expect(await signInState(email, codeOf(secret1))).toBe(200);
    expect((await owner.call('POST', '/dashboard/api/totp/confirm', { body: { code: codeOf(secret2) } })).status).toBe(
      204,
    );
    nextStep();
    expect(await signInState(email, codeOf(secret1))).toBe(401);
    expect(await signInState(email, codeOf(secret2))).toBe(200);
    // Confirmed once: a second confirmation finds no set-up.
    expect((await owner.call('POST', '/dashboard/api/totp/confirm', { body: { code: '000000' } })).status).toBe(409);

    // Off: the password and a current code.
    nextStep();
    const removeWithout = await owner.call('POST', '/dashboard/api/totp/remove', { body: { password: PASSWORD } });
    expect(removeWithout.status).toBe(400);
    const removeWrong = await owner.call('POST', '/dashboard/api/totp/remove', {
      body: { password: 'not the password!!', code: codeOf(secret2) },
    });
    expect(removeWrong.status).toBe(401);
    expect((await owner.call('GET', '/dashboard/api/session')).body.user.totpEnabled).toBe(true);
    const removed = await owner.call('POST', '/dashboard/api/totp/remove', {
      body: { password: PASSWORD, code: codeOf(secret2) },
    });
    expect(removed.status).toBe(204);
    expect((await owner.call('GET', '/dashboard/api/session')).body.user.totpEnabled).toBe(false);
    expect(await signInState(email)).toBe(200);
    expect(
      (await owner.call('POST', '/dashboard/api/totp/remove', { body: { password: PASSWORD, code: '123456' } })).status,
    ).toBe(409);

    // The audit trail: each change, newest first, with the session and address it came from; the user's own only.
    const trail = await owner.call('GET', '/dashboard/api/audit-events');
    expect(trail.status).toBe(200);
    expect(trail.body.map((e: { type: string }) => e.type)).toEqual(['totp.disabled', 'totp.replaced', 'totp.enabled']);
    expect(trail.body[0]).toMatchObject({ clientAddress: '127.0.0.1', sessionId: expect.any(String) });
    const other = await DashboardClient.signedIn(stack, [{ merchantCode: merchant, role: 'owner' }]);
    expect((await other.call('GET', '/dashboard/api/audit-events')).body).toEqual([]);
  });

  it('a new secret left unconfirmed for 10 minutes is void; the setting stays as it was', async () => {
    const { email } = await DashboardClient.invited(stack, [{ merchantCode: merchant, role: 'owner' }]);
    const owner = new DashboardClient(stack);
    await owner.signIn(email);
    const setUp = await owner.call('POST', '/dashboard/api/totp', { body: { password: PASSWORD } });
    clock.advance(10 * 60_000 + 1000);
    const late = await owner.call('POST', '/dashboard/api/totp/confirm', { body: { code: codeOf(setUp.body.secret) } });
    expect(late.status).toBe(409);
    expect((await owner.call('GET', '/dashboard/api/session')).body.user.totpEnabled).toBe(false);
  });

  it('TOTP is for owners; wrong passwords on these routes count toward the email’s lockout', async () => {
    const support = await DashboardClient.signedIn(stack, [{ merchantCode: merchant, role: 'support' }]);
    expect((await support.call('POST', '/dashboard/api/totp', { body: { password: PASSWORD } })).status).toBe(403);

    const { email } = await DashboardClient.invited(stack, [{ merchantCode: merchant, role: 'owner' }]);
    const owner = new DashboardClient(stack);
    await owner.signIn(email);
    for (let i = 0; i < 5; i++) {
      const r = await owner.call('POST', '/dashboard/api/totp', { body: { password: `guess number ${i}!` } });
      expect(r.status).toBe(401);
    }
    const locked = await owner.call('POST', '/dashboard/api/totp', { body: { password: PASSWORD } });
    expect(locked.status).toBe(429);
    expect(locked.body.error.code).toBe('ACCOUNT_LOCKED');
    expect(await signInState(email)).toBe(429);
    clock.advance(15 * 60_000 + 1000);
  });
});
