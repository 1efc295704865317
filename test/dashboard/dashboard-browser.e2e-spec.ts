import { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, scrollWidth, shot, watchProblems } from '../payment-links/browser';
import { PaymentsClient, sandboxMerchant } from '../payments/payments-fixtures';
import { TestStack } from '../support/stack';
import { waitUntil } from '../support/wait';
import { WebhookReceiver, webhookStack } from '../support/webhook-receiver';
import { PASSWORD } from './dashboard-client';

/**
 * The merchant dashboard in headless Chromium against the real suite: people invited through the admin API
 * sign in, find payments, refund, resend webhooks; what a role may not do is absent and refused.
 */
const waitFor = (check: () => Promise<boolean | undefined> | boolean | undefined) =>
  waitUntil('the page or the receiver to show it', async () => Boolean(await check()));

describe('the dashboard in a browser (gateway → services)', () => {
  let stack: TestStack;
  let shop: PaymentsClient;
  let browser: Browser;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    // Billing too: sign-in lands on the home page, whose recovery figures come from billing.
    stack = await webhookStack({ services: ['payments', 'billing'] });
    shop = await sandboxMerchant(stack);
    receiver = await WebhookReceiver.start();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await stack?.stop();
  });

  /** Invites a user through the admin API; answers the link's path on this gateway (the token is its fragment). */
  async function invite(role: 'owner' | 'developer' | 'support'): Promise<{ email: string; link: string }> {
    const email = `${role}-${Math.random().toString(36).slice(2, 8)}@shop.example`;
    const r = await stack.admin('POST', '/dashboard-users', {
      email,
      memberships: [{ merchantCode: shop.merchantCode, role }],
    });
    expect(r.status).toBe(201);
    // The link as printed, on this test's gateway origin: `<origin>/dashboard/#/invite/<token>`.
    const link = new URL(String(r.body.inviteUrl));
    expect(link.hash).toMatch(/^#\/invite\/.+/);
    return { email, link: `${stack.url}${link.pathname}${link.hash}` };
  }

  /** A new browser context (its own cookies) with the invited user's password set and signed in. */
  async function signedIn(
    role: 'owner' | 'developer' | 'support',
    viewport = { width: 1280, height: 900 },
  ): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
    const { email, link } = await invite(role);
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    const problems = watchProblems(page);
    await page.goto(link);
    await page.getByLabel('New password (12 characters or more)').fill(PASSWORD);
    await page.getByLabel('Repeat the password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByRole('link', { name: 'sign in' }).click();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Payments' }).waitFor();
    // Before signing in, the page's session probe answered 401 (not signed in): that is how it knew to ask.
    problems.length = 0;
    return { context, page, problems };
  }

  it('an invited owner signs in, finds a payment by its order code, refunds half and sees it in the timeline and the API', async () => {
    const paid = await shop.purchase();
    expect(paid.status).toBe(200);
    const { context, page, problems } = await signedIn('owner');
    await expect(page.getByRole('status').first().textContent()).resolves.toContain('Sandbox');
    // Sign-in lands on the home page; the payments list is one click away.
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Payments' }).click();
    await page.getByRole('heading', { name: 'Payments', level: 1 }).waitFor();
    await shot(page, 'dashboard-payments');

    await page.getByLabel('Order or payment code').fill(paid.body.orderCode);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('link', { name: paid.body.orderCode }).click();
    await page.getByRole('heading', { name: new RegExp(`Payment ${paid.body.orderCode}`) }).waitFor();
    await shot(page, 'dashboard-payment');

    await page.getByRole('button', { name: 'Refund' }).click();
    const dialog = page.getByRole('dialog', { name: 'Refund' });
    await dialog.getByLabel('Amount to refund (USD)').fill('5.00');
    await shot(page, 'dashboard-refund-confirm');
    await dialog.getByRole('button', { name: 'Confirm: Refund' }).click();
    await dialog.waitFor({ state: 'detached' });

    const api = await shop.get(paid.body.id);
    expect(api.body.amountRefunded).toMatchObject({ value: 500, currency: 'USD' });
    // The timeline reads the event store, which the webhooks service fills from the stream.
    await waitFor(async () => {
      await page.reload();
      return (await page.getByRole('list', { name: 'Timeline' }).textContent())?.includes('payment.refunded');
    });
    await expect(page.getByText('5.00 USD').first().isVisible()).resolves.toBe(true);
    await shot(page, 'dashboard-refunded');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a support user sees no capture, secret roll or key controls, and the server refuses them anyway', async () => {
    const held = await shop.authorize();
    const { context, page, problems } = await signedIn('support');
    await expect(page.getByRole('link', { name: 'API keys' }).count()).resolves.toBe(0);
    await page.goto(`${stack.url}/dashboard#/payments/${held.body.id}`);
    await page.getByRole('heading', { name: new RegExp(`Payment ${held.body.orderCode}`) }).waitFor();
    await expect(page.getByRole('button', { name: 'Capture' }).count()).resolves.toBe(0);
    await page.goto(`${stack.url}/dashboard#/webhooks`);
    await page.getByRole('heading', { name: 'Webhook endpoints' }).waitFor();
    await expect(page.getByRole('button', { name: /Roll/ }).count()).resolves.toBe(0);
    await page.goto(`${stack.url}/dashboard#/keys`);
    await expect(page.getByRole('button', { name: 'Create key' }).count()).resolves.toBe(0);
    await shot(page, 'dashboard-support-keys');

    // The same calls from the page's own origin with its cookie and CSRF token: refused by the server.
    const session = await page.evaluate<{ csrfToken: string }>(`fetch('/dashboard/api/session').then((r) => r.json())`);
    const statuses = await page.evaluate<number[]>(`Promise.all([
      fetch('/v1/webhook-secret/roll', { method: 'POST', headers: { 'content-type': 'application/json',
        'x-csrf-token': ${JSON.stringify(session.csrfToken)}, 'x-dashboard-merchant': ${JSON.stringify(shop.merchantCode)},
        'x-dashboard-environment': 'sandbox', 'idempotency-key': crypto.randomUUID() }, body: '{}' }).then((r) => r.status),
      fetch('/dashboard/api/keys', { method: 'POST', headers: { 'content-type': 'application/json',
        'x-csrf-token': ${JSON.stringify(session.csrfToken)} }, body: JSON.stringify({ name: 'x', type: 'private',
        environment: 'sandbox', merchantCode: ${JSON.stringify(shop.merchantCode)} }) }).then((r) => r.status),
    ])`);
    expect(statuses).toEqual([403, 403]);
    expect(problems.filter((p) => !p.startsWith('403'))).toEqual([]);
    await context.close();
  });

  it('a delivery that failed is resent from the log and arrives', async () => {
    const endpoint = await stack.http('POST', '/v1/webhook-endpoint', {
      key: shop.key,
      body: { url: receiver.url('/dashboard'), events: ['payment.captured'] },
    });
    expect(endpoint.status).toBe(201);
    receiver.respond = (n, _body, _headers, path) => (path === '/dashboard' && n === 1 ? 500 : 200);
    receiver.answer = (status) => (status === 500 ? '{"error":"orders database unreachable"}' : 'ok');
    const paid = await shop.purchase();
    await waitFor(() => receiver.received.some((r) => r.path === '/dashboard' && r.status === 500));

    const { context, page } = await signedIn('support');
    await page.goto(`${stack.url}/dashboard#/webhooks/${endpoint.body.id}`);
    const log = page.getByRole('table', { name: 'Delivery log' });
    await log.waitFor();
    await expect(log.textContent()).resolves.toContain('failed');
    // The failed try's answer, as the receiver wrote it, one click away.
    await log.getByText('Answer body', { exact: true }).first().click();
    await expect(log.getByText('{"error":"orders database unreachable"}').isVisible()).resolves.toBe(true);
    await shot(page, 'dashboard-delivery-failed');
    const eventId = receiver.received.find((r) => r.path === '/dashboard')!.headers['webhook-id'];
    await page.getByRole('button', { name: `Resend payment.captured ${eventId}` }).click();
    await page.getByRole('button', { name: `Confirm: Resend payment.captured ${eventId}` }).click();
    await waitFor(() =>
      receiver.received.some((r) => r.path === '/dashboard' && r.status === 200 && r.body.includes(paid.body.id)),
    );
    await page.getByRole('button', { name: 'Refresh the log' }).click();
    await waitFor(async () => (await log.textContent())?.includes('succeeded'));
    await shot(page, 'dashboard-delivery-resent');
    await context.close();
  });

  it('a session cookie replayed after sign-out is refused, and a change without the CSRF token too', async () => {
    const paid = await shop.purchase();
    const { context, page } = await signedIn('owner');
    const noCsrf = await page.evaluate<number>(`fetch('/v1/payment/${paid.body.id}/refund', { method: 'POST',
      headers: { 'content-type': 'application/json', 'x-dashboard-merchant': ${JSON.stringify(shop.merchantCode)},
      'x-dashboard-environment': 'sandbox', 'idempotency-key': crypto.randomUUID() },
      body: JSON.stringify({ amount: { value: 100, currency: 'USD', exponent: 2 } }) }).then((r) => r.status)`);
    expect(noCsrf).toBe(403);
    expect((await shop.get(paid.body.id)).body.amountRefunded.value).toBe(0);

    const cookie = (await context.cookies()).find((c) => c.name === 'pp_dash');
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe('Strict');
    const before = await stack.http('GET', '/dashboard/api/session', {
      headers: { cookie: `pp_dash=${cookie!.value}` },
    });
    expect(before.status).toBe(200);
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.getByRole('heading', { name: 'Sign in to the dashboard' }).waitFor();
    const replayed = await stack.http('GET', '/dashboard/api/session', {
      headers: { cookie: `pp_dash=${cookie!.value}` },
    });
    expect(replayed.status).toBe(401);
    const replayedApi = await stack.http('GET', `/v1/payment/${paid.body.id}`, {
      headers: {
        cookie: `pp_dash=${cookie!.value}`,
        'x-dashboard-merchant': shop.merchantCode,
        'x-dashboard-environment': 'sandbox',
      },
    });
    expect(replayedApi.status).toBe(401);
    await context.close();
  });

  it('pages fit a phone: no horizontal scrolling at 390 px, the page served with a strict CSP', async () => {
    const paid = await shop.purchase();
    const { context, page, problems } = await signedIn('owner', { width: 390, height: 844 });
    expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
    await shot(page, 'dashboard-phone-payments');
    await page.goto(`${stack.url}/dashboard#/payments/${paid.body.id}`);
    await page.getByRole('heading', { name: new RegExp(`Payment ${paid.body.orderCode}`) }).waitFor();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
    await shot(page, 'dashboard-phone-payment');
    const res = await stack.http('GET', '/dashboard');
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(res.headers.get('content-security-policy')).not.toContain('unsafe-inline');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    // The page under any subpath (the invitation link's /dashboard/ among them), with the same policy; an
    // unknown session-API path is a 404, not the page.
    for (const path of ['/dashboard/', '/dashboard/payments/anything']) {
      const sub = await stack.http('GET', path);
      expect({ path, status: sub.status }).toEqual({ path, status: 200 });
      expect(sub.headers.get('content-security-policy')).toBe(res.headers.get('content-security-policy'));
      expect(String(sub.body)).toContain('/dashboard/assets/');
    }
    expect((await stack.http('GET', '/dashboard/api/nothing-here')).status).toBe(404);
    expect((await stack.http('GET', '/dashboard/assets/nothing-here.js')).status).toBe(404);
    expect(problems).toEqual([]);
    await context.close();
  });
});
