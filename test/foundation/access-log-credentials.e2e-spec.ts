import { fromDashboard, PASSWORD } from '../dashboard/dashboard-client';
import { CHALLENGE, checkoutToken, LinksClient, linksStack, nonceFor, pay } from '../payment-links/link-fixtures';
import { cardData } from '../payments/payments-fixtures';
import { TestStack } from '../support/stack';

/**
 * No keyless credential in a log line (apps/gateway/src/http/logged-path.ts): a full run of a hosted checkout
 * with a 3DS challenge, a merchant's own 3DS through the sandbox route, and a dashboard invitation, with every
 * app's log captured at debug level, then scanned for each credential it used.
 */
describe('keyless credentials never reach a log line', () => {
  let stack: TestStack;
  let links: LinksClient;

  beforeAll(async () => ([stack, links] = await linksStack()));
  afterAll(() => stack.stop());

  it('a checkout with 3DS, the sandbox 3DS route and an invitation leave no session id, link id or token in any log', async () => {
    // A hosted checkout: the page, the payment with a challenge card, the challenge page and its answer, resume.
    const link = await links.link();
    const clientToken = await checkoutToken(stack, link.id);
    const paid = await pay(stack, link.id, clientToken, { nonce: await nonceFor(stack, clientToken, CHALLENGE) });
    expect(paid.status).toBe(200);
    const checkoutSession: string = paid.body.payment.actionRequired.sessionId;
    expect((await stack.http('GET', `/v1/3ds/challenge/${checkoutSession}`)).status).toBe(200);
    const challenged = await stack.http('POST', `/v1/3ds/challenge/${checkoutSession}`, {
      body: { outcome: 'authenticated' },
    });
    expect(challenged.status).toBeLessThan(400);
    const resumed = await stack.http('POST', `/v1/checkout/${link.id}/resume`, {
      key: clientToken,
      body: { sessionId: checkoutSession },
    });
    expect(resumed.status).toBe(200);
    // A path no route takes, spelled with a session id in it.
    expect((await stack.http('GET', `/v1/3ds/challenge/${checkoutSession}/again`)).status).toBe(404);

    // A merchant's own payment with 3DS, authenticated through the sandbox route.
    const own = await links.m.purchase({ card: cardData(CHALLENGE) });
    const ownSession: string = own.body.actionRequired.sessionId;
    const sandbox = await stack.http('POST', `/v1/sandbox/3ds/${ownSession}`, {
      key: links.key,
      body: { outcome: 'authenticated' },
    });
    expect(sandbox.status).toBe(200);

    // An invitation link opened without its `#` (the token then in the path), and accepted.
    const invite = await stack.admin('POST', '/dashboard-users', {
      email: `ana${Date.now()}@shop.example`,
      memberships: [{ merchantCode: links.m.merchantCode, role: 'support' }],
    });
    const inviteToken = String(invite.body.inviteUrl).split('#/invite/')[1];
    expect((await stack.http('GET', `/dashboard/invite/${inviteToken}`)).status).toBeLessThan(600);
    const accepted = await stack.http('POST', '/dashboard/api/invitations/accept', {
      headers: fromDashboard(stack),
      body: { token: inviteToken, password: PASSWORD },
    });
    expect(accepted.status).toBe(200);

    const credentials = {
      '3DS session of the checkout': checkoutSession,
      '3DS session of the API payment': ownSession,
      'checkout link id': String(link.id),
      'checkout client token': clientToken,
      'invitation token': inviteToken,
    };
    const apps = [...stack.logs.keys()];
    expect(apps).toEqual(expect.arrayContaining(['gateway', 'payments', 'payment-links']));
    const found = Object.entries(credentials).flatMap(([kind, value]) =>
      apps.filter((app) => stack.log(app).text().includes(value)).map((app) => `${kind} in the ${app} log`),
    );
    expect(found).toEqual([]);
    // The requests were logged, their credentials as [redacted].
    const paths = stack
      .log('gateway')
      .json()
      .filter((l) => l.msg === 'request')
      .map((l) => String(l.path));
    expect(paths).toEqual(
      expect.arrayContaining([
        '/checkout/[redacted]',
        '/v1/checkout/[redacted]/pay',
        '/v1/checkout/[redacted]/resume',
        '/v1/3ds/challenge/[redacted]',
        '/v1/sandbox/3ds/[redacted]',
        '/dashboard/[redacted]',
        '/v1/3ds/[redacted]/[redacted]/[redacted]',
      ]),
    );
  });
});
