import { ManualClock } from '@app/clock';
import { SmtpSink, linkIn } from '../support/smtp-sink';
import { TestStack } from '../support/stack';
import { DashboardClient, fromDashboard, PASSWORD } from './dashboard-client';

describe('the owner’s team and forgotten passwords (dashboard → SMTP sink, real Postgres)', () => {
  let stack: TestStack;
  let sink: SmtpSink;
  let merchant: string;
  let owner: DashboardClient;
  let ownerEmail: string;
  const clock = new ManualClock(new Date());

  beforeAll(async () => {
    sink = await SmtpSink.start();
    stack = await TestStack.start({ gateway: false, env: sink.env() });
    await stack.startGateway({}, clock);
    merchant = await stack.merchant();
    const invited = await DashboardClient.invited(stack, [{ merchantCode: merchant, role: 'owner' }]);
    ownerEmail = invited.email;
    owner = new DashboardClient(stack);
    expect((await owner.signIn(ownerEmail)).status).toBe(200);
  });
  afterAll(async () => {
    await stack.stop();
    await sink.stop();
  });

  const acceptFrom = async (email: string, subject: RegExp, prefix: string, path: string, password = PASSWORD) => {
    const mail = await sink.waitFor(email, subject);
    const token = linkIn(mail.text, 'http').split(prefix)[1];
    return {
      token,
      answer: await stack.http('POST', path, { headers: fromDashboard(stack), body: { token, password } }),
    };
  };

  it('an owner invites by email; the invitee sets a password from the emailed link and signs in with the role given', async () => {
    const email = `lee.${Date.now()}@shop.example`;
    const invite = await owner.call('POST', '/dashboard/api/team', {
      body: { merchantCode: merchant, email: email.toUpperCase(), role: 'support' },
    });
    expect(invite.status).toBe(201);
    expect(invite.body).toMatchObject({ email, role: 'support', passwordSet: false, mail: 'sent' });
    expect(invite.body).not.toHaveProperty('inviteUrl');

    const { answer } = await acceptFrom(email, /invited/, '#/invite/', '/dashboard/api/invitations/accept');
    expect(answer.status).toBe(200);
    const lee = new DashboardClient(stack);
    const signIn = await lee.signIn(email);
    expect(signIn.status).toBe(200);
    expect(signIn.body.memberships).toEqual([
      { merchantCode: merchant, merchantName: `Merchant ${merchant}`, role: 'support' },
    ]);

    const team = await lee.call('GET', `/dashboard/api/team?merchantCode=${merchant}`);
    expect(team.status).toBe(200);
    expect(team.body.map((m: { email: string; role: string }) => [m.email, m.role]).sort()).toEqual(
      [
        [email, 'support'],
        [ownerEmail, 'owner'],
      ].sort(),
    );
    // Support may read the team, not change it.
    const refused = await lee.call('POST', '/dashboard/api/team', {
      body: { merchantCode: merchant, email: 'x@shop.example', role: 'owner' },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('AUTH_INSUFFICIENT_SCOPE');
    const again = await owner.call('POST', '/dashboard/api/team', {
      body: { merchantCode: merchant, email, role: 'owner' },
    });
    expect(again.status).toBe(409);

    // Promoted: the next request of the same session acts with the new role.
    const promoted = await owner.call('PATCH', `/dashboard/api/team/${invite.body.id}`, {
      body: { merchantCode: merchant, role: 'developer' },
    });
    expect(promoted.status).toBe(200);
    expect(promoted.body).toMatchObject({ email, role: 'developer', passwordSet: true });
    expect((await lee.call('GET', '/dashboard/api/session')).body.memberships[0].role).toBe('developer');

    // Removed from their only merchant: the account and its sessions are gone.
    const removed = await owner.call('DELETE', `/dashboard/api/team/${invite.body.id}?merchantCode=${merchant}`);
    expect(removed.status).toBe(204);
    expect((await lee.call('GET', '/dashboard/api/session')).status).toBe(401);
    expect((await lee.signIn(email)).status).toBe(401);
  });

  it('someone with an account is added without an email; a merchant keeps at least one owner', async () => {
    const other = await stack.merchant();
    const { email, id } = await DashboardClient.invited(stack, [{ merchantCode: other, role: 'owner' }]);
    const sentBefore = sink.to(email).length;
    const added = await owner.call('POST', '/dashboard/api/team', {
      body: { merchantCode: merchant, email, role: 'owner' },
    });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ id, mail: 'not_needed', passwordSet: true });
    expect(sink.to(email)).toHaveLength(sentBefore);

    const me = (await owner.call('GET', '/dashboard/api/session')).body.user;
    const team = (await owner.call('GET', `/dashboard/api/team?merchantCode=${merchant}`)).body;
    const myId = team.find((m: { email: string }) => m.email === me.email).id;
    // Two owners: one may step down; then the last may not.
    expect(
      (await owner.call('PATCH', `/dashboard/api/team/${id}`, { body: { merchantCode: merchant, role: 'support' } }))
        .status,
    ).toBe(200);
    const last = await owner.call('PATCH', `/dashboard/api/team/${myId}`, {
      body: { merchantCode: merchant, role: 'developer' },
    });
    expect(last.status).toBe(409);
    expect(last.body.error.code).toBe('INVALID_STATE');
    expect((await owner.call('DELETE', `/dashboard/api/team/${myId}?merchantCode=${merchant}`)).status).toBe(409);
    // Removed from one of two merchants: the account stays, with the other.
    expect((await owner.call('DELETE', `/dashboard/api/team/${id}?merchantCode=${merchant}`)).status).toBe(204);
    const users = (await stack.admin('GET', '/dashboard-users')).body;
    expect(
      users.find((u: { id: string }) => u.id === id).memberships.map((m: { merchantCode: string }) => m.merchantCode),
    ).toEqual([other]);
  });

  it('a forgotten password: the emailed link works once, within the hour, and ends every session', async () => {
    const { email } = await DashboardClient.invited(stack, [{ merchantCode: merchant, role: 'support' }]);
    const signedIn = new DashboardClient(stack);
    await signedIn.signIn(email);

    const asked = await stack.http('POST', '/dashboard/api/password-resets', {
      headers: fromDashboard(stack),
      body: { email: email.toUpperCase() },
    });
    expect(asked.status).toBe(202);
    const newPassword = 'a brand new password of mine';
    const { token, answer } = await acceptFrom(
      email,
      /Reset/,
      '#/reset/',
      '/dashboard/api/password-resets/confirm',
      newPassword,
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ email });
    expect((await signedIn.call('GET', '/dashboard/api/session')).status).toBe(401);
    expect((await new DashboardClient(stack).signIn(email)).status).toBe(401);
    expect((await new DashboardClient(stack).signIn(email, newPassword)).status).toBe(200);
    const reused = await stack.http('POST', '/dashboard/api/password-resets/confirm', {
      headers: fromDashboard(stack),
      body: { token, password: 'yet another password here' },
    });
    expect(reused.status).toBe(404);
    expect(stack.log('gateway').text()).not.toContain(token);

    // An hour later, an unused link is refused.
    sink.messages.length = 0;
    await stack.http('POST', '/dashboard/api/password-resets', { headers: fromDashboard(stack), body: { email } });
    const mail = await sink.waitFor(email, /Reset/);
    const late = linkIn(mail.text, 'http').split('#/reset/')[1];
    clock.advance(3600_000 + 1000);
    const expired = await stack.http('POST', '/dashboard/api/password-resets/confirm', {
      headers: fromDashboard(stack),
      body: { token: late, password: 'yet another password here' },
    });
    expect(expired.status).toBe(404);
  });

  it('an unknown email gets the same answer and no email; another site’s page is refused', async () => {
    const unknown = `nobody.${Date.now()}@shop.example`;
    const asked = await stack.http('POST', '/dashboard/api/password-resets', {
      headers: fromDashboard(stack),
      body: { email: unknown },
    });
    expect(asked.status).toBe(202);
    const crossSite = await stack.http('POST', '/dashboard/api/password-resets', {
      headers: { origin: 'https://evil.example' },
      body: { email: ownerEmail },
    });
    expect(crossSite.status).toBe(403);
    expect(crossSite.body.error.code).toBe('CSRF_INVALID');
    const crossSiteConfirm = await stack.http('POST', '/dashboard/api/password-resets/confirm', {
      headers: { origin: 'https://evil.example' },
      body: { token: 'a'.repeat(43), password: 'whatever password 123' },
    });
    expect(crossSiteConfirm.status).toBe(403);
    await new Promise((r) => setTimeout(r, 300));
    expect(sink.to(unknown)).toHaveLength(0);
  });
});
