import { generateSync } from 'otplib';
import { Browser, BrowserContext, Page } from 'playwright-core';
import { BillingClient, billingMerchant } from '../billing/billing-fixtures';
import { launchBrowser, scrollWidth, shot, watchProblems } from '../payment-links/browser';
import { PaymentsClient, sandboxMerchant } from '../payments/payments-fixtures';
import { TestStack } from '../support/stack';
import { waitUntil } from '../support/wait';
import { WebhookReceiver, webhookStack } from '../support/webhook-receiver';
import { fromDashboard, PASSWORD } from './dashboard-client';

/**
 * Every page of the dashboard as an owner, with data made through the API first: what each page shows and
 * what its controls do, checked through the API; a screenshot of each (test-output/screenshots/dashboard-*).
 */
const waitFor = (what: string, check: () => Promise<boolean | undefined> | boolean | undefined) =>
  waitUntil(what, async () => Boolean(await check()));

describe('the dashboard pages as an owner (gateway → services)', () => {
  let stack: TestStack;
  let shop: PaymentsClient;
  let billing: BillingClient;
  let browser: Browser;
  let receiver: WebhookReceiver;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];

  beforeAll(async () => {
    stack = await webhookStack({ services: ['payments', 'payment-links', 'billing'] });
    shop = await sandboxMerchant(stack);
    billing = await billingMerchant(stack, 'sandbox', shop.merchantCode);
    receiver = await WebhookReceiver.start();
    browser = await launchBrowser();
    const email = await invitedOwner();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.url });
    page = await context.newPage();
    problems = watchProblems(page);
    await signIn(page, email);
    problems.length = 0; // the session probe before signing in answered 401
  });
  afterEach(() => expect(problems.splice(0)).toEqual([]));
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await receiver?.close();
    await stack?.stop();
  });

  /** An owner of the shop with the password set from the invitation link. */
  async function invitedOwner(): Promise<string> {
    const email = `owner-${Math.random().toString(36).slice(2, 8)}@shop.example`;
    const invite = await stack.admin('POST', '/dashboard-users', {
      email,
      memberships: [{ merchantCode: shop.merchantCode, role: 'owner' }],
    });
    expect(invite.status).toBe(201);
    const token = String(invite.body.inviteUrl).split('#/invite/')[1];
    const accepted = await stack.http('POST', '/dashboard/api/invitations/accept', {
      headers: fromDashboard(stack),
      body: { token, password: PASSWORD },
    });
    expect(accepted.status).toBe(200);
    return email;
  }

  async function signIn(on: Page, email: string): Promise<void> {
    await on.goto(`${stack.url}/dashboard#/sign-in`);
    await on.getByLabel('Email').fill(email);
    await on.getByLabel('Password').fill(PASSWORD);
    await on.getByRole('button', { name: 'Sign in' }).click();
    await on.getByRole('heading', { name: 'Payments' }).waitFor();
  }

  const open = async (route: string, heading: string | RegExp) => {
    await page.goto(`${stack.url}/dashboard#/${route}`);
    await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
  };

  it('subscriptions: the list, and a subscription with its plan, period and invoice', async () => {
    const plan = await billing.plan({ name: 'Gold monthly', amount: 2500 });
    const sub = await billing.subscription({ planId: plan.id, customerEmail: 'ada@customer.example' });
    await open('subscriptions', 'Subscriptions');
    const row = page.getByRole('row', { name: /ada@customer\.example/ });
    // The list answers plan ids; the page names the plan once the plans are in.
    await waitFor('the plan name', async () => (await row.textContent())?.includes('Gold monthly'));
    await expect(row.textContent()).resolves.toContain('active');
    await shot(page, 'dashboard-subscriptions');

    await row.getByRole('link', { name: 'ada@customer.example' }).click();
    await page.getByRole('heading', { name: /Subscription of ada@customer\.example/ }).waitFor();
    const invoices = page.getByRole('table', { name: 'Invoices' });
    await expect(invoices.textContent()).resolves.toContain('25.00 USD');
    await expect(page.getByRole('definition').first().textContent()).resolves.toContain('Gold monthly');
    await page.getByRole('button', { name: 'Pause' }).waitFor();
    await shot(page, 'dashboard-subscription');
    expect((await billing.get(`/v1/subscription/${sub.id}`)).body.status).toBe('active');
  });

  it('payment links: created from the page, its URL copied, then cancelled', async () => {
    await open('links', 'Payment links');
    await page.getByLabel('Title').fill('Concert ticket');
    await page.getByLabel('Amount').fill('12.50');
    await page.getByLabel('Currency').fill('USD');
    await page.getByRole('button', { name: 'Create link' }).click();
    const row = page.getByRole('row', { name: /Concert ticket/ });
    await row.waitFor();
    const listed = await stack.http('GET', '/v1/payment-link', { key: shop.key });
    const link = listed.body.find((l: { title: string }) => l.title === 'Concert ticket');
    expect(link).toMatchObject({ status: 'active', amount: { value: 1250, currency: 'USD' } });
    await expect(row.textContent()).resolves.toContain('12.50 USD');
    await expect(page.getByLabel('Title').inputValue()).resolves.toBe('');

    await row.getByRole('button', { name: 'Copy the URL of Concert ticket' }).click();
    await page.getByText(`Copied: ${link.url}`).waitFor();
    await expect(page.evaluate<string>('navigator.clipboard.readText()')).resolves.toBe(link.url);
    await shot(page, 'dashboard-links');

    await row.getByRole('button', { name: 'Cancel link' }).click();
    await page.getByRole('button', { name: 'Confirm: Cancel link' }).click();
    await waitFor('the link to show cancelled', async () => (await row.textContent())?.includes('cancelled'));
    expect((await stack.http('GET', `/v1/payment-link/${link.id}`, { key: shop.key })).body.status).toBe('cancelled');
    await shot(page, 'dashboard-links-cancelled');
  });

  it('webhooks: an endpoint created (its secret shown once), disabled, its secret rolled with a grace', async () => {
    await open('webhooks', 'Webhook endpoints');
    const url = receiver.url('/pages');
    await page.getByLabel('URL (HTTPS)').fill(url);
    await page.getByLabel(/^Events/).fill('payment.captured, payment.refunded');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const shown = page.getByRole('status').filter({ hasText: 'Signing secret, shown once' });
    const secret = (await shown.locator('code').textContent()) ?? '';
    expect(secret).toMatch(/^whsec_/);
    await page.getByRole('link', { name: url }).waitFor();
    await shot(page, 'dashboard-webhooks');
    // Once: the page shown again has no secret on it.
    await page.reload();
    await page.getByRole('link', { name: url }).waitFor();
    await expect(page.getByText(secret).count()).resolves.toBe(0);

    await page.getByRole('link', { name: url }).click();
    await page.getByRole('heading', { name: url }).waitFor();
    await page.getByRole('button', { name: 'Disable endpoint' }).click();
    await page.getByRole('button', { name: 'Confirm: Disable endpoint' }).click();
    await page.getByRole('button', { name: 'Enable endpoint' }).waitFor();
    const endpoints = await stack.http('GET', '/v1/webhook-endpoint', { key: shop.key });
    const endpoint = endpoints.body.find((e: { url: string }) => e.url === url);
    expect(endpoint.disabled).toBe(true);

    await page.getByRole('button', { name: 'Roll secret' }).click();
    await page.getByRole('button', { name: 'Confirm: Roll secret' }).click();
    const rolled = page.getByRole('status').filter({ hasText: 'New secret' });
    await rolled.waitFor();
    const newSecret = (await rolled.locator('code').textContent()) ?? '';
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(secret);
    expect(await rolled.textContent()).toMatch(/the old one works until \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
    await shot(page, 'dashboard-webhook-rolled');
  });

  it('events: the list, one expanded to its data', async () => {
    const paid = await shop.purchase();
    // The event store fills from the stream: wait for the event there, then open the page.
    await waitFor('the event of the purchase', async () => {
      const events = await stack.http('GET', '/v1/events?type=payment.captured', { key: shop.key });
      return events.body.some((e: { data: { id: string } }) => e.data.id === paid.body.id);
    });
    await open('events', 'Events');
    const event = page.getByRole('button', { name: 'payment.captured' }).first();
    await expect(event.getAttribute('aria-expanded')).resolves.toBe('false');
    await event.click();
    await expect(event.getAttribute('aria-expanded')).resolves.toBe('true');
    await expect(page.getByLabel('Event data').first().textContent()).resolves.toContain(paid.body.id);
    await shot(page, 'dashboard-events');
  });

  it('API keys: one created with a name (the full key shown once and working), then revoked', async () => {
    await open('keys', /API keys/);
    await page.getByLabel('Name').fill('Shop server');
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByRole('status').filter({ hasText: 'shown this once' });
    const key = (await shown.locator('code').textContent()) ?? '';
    const row = page.getByRole('row', { name: /Shop server/ });
    await row.waitFor();
    expect((await stack.http('GET', '/v1/payment', { key })).status).toBe(200);
    // The list shows a prefix only, never the key; keys made without a name (the test's own) are named by it.
    await expect(row.textContent()).resolves.not.toContain(key);
    const hint = shop.key.slice(0, shop.key.lastIndexOf('_') + 5);
    const ownKey = page.getByRole('row', { name: new RegExp(hint) });
    await expect(ownKey.textContent()).resolves.toContain('(no name)');
    await ownKey.getByRole('button', { name: `Revoke ${hint}` }).waitFor();
    await shot(page, 'dashboard-keys');

    await row.getByRole('button', { name: 'Revoke Shop server' }).click();
    await page.getByRole('button', { name: 'Confirm: Revoke Shop server' }).click();
    await waitFor('the key to show revoked', async () => (await row.textContent())?.includes('revoked'));
    expect((await stack.http('GET', '/v1/payment', { key })).status).toBe(401);
    await shot(page, 'dashboard-keys-revoked');
  });

  it('sandbox clock: advanced by P1D, the time shown moves a day', async () => {
    await open('sandbox', 'Sandbox clock');
    const shown = page.getByText(/Sandbox time:/);
    const timeOf = async () => Date.parse(((await shown.locator('strong').textContent()) ?? '').replace(' UTC', 'Z'));
    await shown.waitFor();
    const before = await timeOf();
    await page.getByLabel('Advance by (ISO 8601 duration)').fill('P1D');
    await page.getByRole('button', { name: 'Advance the clock' }).click();
    await page.getByRole('button', { name: 'Confirm: Advance the clock' }).click();
    await waitFor('the clock to move', async () => (await timeOf()) >= before + 86_400_000);
    const api = await stack.http('GET', `/v1/sandbox/clock`, { key: shop.key });
    expect(Date.parse(api.body.now) - Date.now()).toBeGreaterThan(86_400_000 - 60_000);
    await shot(page, 'dashboard-sandbox-clock');
  });

  it('a payment’s timeline links each event to its webhook deliveries', async () => {
    const url = receiver.url('/timeline');
    const endpoint = await stack.http('POST', '/v1/webhook-endpoint', {
      key: shop.key,
      body: { url, events: ['payment.captured'] },
    });
    expect(endpoint.status).toBe(201);
    const paid = await shop.purchase();
    await waitFor('the delivery to succeed', async () => {
      const log = await stack.http('GET', `/v1/webhook-endpoint/${endpoint.body.id}/deliveries`, { key: shop.key });
      return log.body.some((d: { status: string }) => d.status === 'succeeded');
    });
    await open(`payments/${paid.body.id}`, new RegExp(`Payment ${paid.body.orderCode}`));
    await page.getByRole('link', { name: 'Webhook deliveries of payment.captured' }).click();
    await page.getByRole('heading', { name: 'Event payment.captured', level: 1 }).waitFor();
    const deliveries = page.getByRole('table', { name: 'Deliveries of this event' });
    await expect(deliveries.textContent()).resolves.toMatch(new RegExp(`${url}1succeeded200`));
    await expect(page.getByLabel('Event data').textContent()).resolves.toContain(paid.body.id);
    await shot(page, 'dashboard-event-deliveries');
  });

  it('every page fits a phone: no sideways scrolling at 390 px', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    const pages: Array<[string, string | RegExp]> = [
      ['payments', 'Payments'],
      ['subscriptions', 'Subscriptions'],
      ['links', 'Payment links'],
      ['webhooks', 'Webhook endpoints'],
      ['events', 'Events'],
      ['keys', /API keys/],
      ['sandbox', 'Sandbox clock'],
      ['security', 'Security'],
    ];
    const wide: string[] = [];
    for (const [route, heading] of pages) {
      await open(route, heading);
      await waitFor(`${route} to load`, async () => (await page.locator('[aria-busy="true"]').count()) === 0);
      if ((await scrollWidth(page)) > 390) wide.push(route);
    }
    await shot(page, 'dashboard-phone-security');
    expect(wide).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('security: an owner turns two-factor sign-in on with the password, sign-in then asks for the code, sign out everywhere', async () => {
    const email = await invitedOwner();
    const first = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const one = await first.newPage();
    const oneProblems = watchProblems(one);
    await signIn(one, email);
    await one.getByRole('link', { name: 'Security' }).click();
    await one.getByRole('heading', { name: 'Security', level: 1 }).waitFor();
    // Setting it up asks for the password first.
    const setUp = one.getByRole('form', { name: 'Set up two-factor sign-in' });
    await setUp.getByLabel('Password').fill(PASSWORD);
    await setUp.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    const secret = (await one.getByText('Set-up key:').locator('code').textContent()) ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    await expect(one.getByRole('link', { name: 'the set-up link' }).getAttribute('href')).resolves.toContain(
      `secret=${secret}`,
    );
    await shot(one, 'dashboard-security-enrol');
    const codeAt = (seconds: number) => generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + seconds });
    await one.getByLabel('Code from the app').fill(codeAt(0));
    await one.getByRole('button', { name: 'Turn on' }).click();
    await one.getByText('on: signing in asks for a code').waitFor();
    const view = await one.evaluate<{ user: { totpEnabled: boolean } }>(
      `fetch('/dashboard/api/session').then((r) => r.json())`,
    );
    expect(view.user.totpEnabled).toBe(true);
    // The change is in the user's audit trail, and turning it off or replacing the key asks for a current code.
    await one.getByRole('list', { name: 'Recent changes' }).getByText('Two-factor sign-in turned on').waitFor();
    const off = one.getByRole('form', { name: 'Turn off two-factor sign-in' });
    await expect(off.getByLabel('Current code from the app').count()).resolves.toBe(1);
    await expect(one.getByRole('form', { name: 'Replace the key' }).count()).resolves.toBe(1);
    await shot(one, 'dashboard-security-on');

    // Another browser: the password alone is not enough any more; the next code (each is taken once) is.
    const second = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const two = await second.newPage();
    await two.goto(`${stack.url}/dashboard#/sign-in`);
    await two.getByLabel('Email').fill(email);
    await two.getByLabel('Password').fill(PASSWORD);
    await two.getByRole('button', { name: 'Sign in' }).click();
    const code = two.getByLabel('Authenticator code');
    await code.waitFor();
    await expect(two.getByRole('heading', { name: 'Payments' }).count()).resolves.toBe(0);
    await shot(two, 'dashboard-sign-in-code');
    await code.fill(codeAt(30));
    await two.getByRole('button', { name: 'Sign in' }).click();
    await two.getByRole('heading', { name: 'Payments' }).waitFor();

    // Signing out everywhere from the second browser ends the first one's session too.
    await two.getByRole('link', { name: 'Security' }).click();
    await two.getByRole('button', { name: 'Sign out everywhere' }).click();
    await two.getByRole('button', { name: 'Confirm: Sign out everywhere' }).click();
    await two.getByRole('heading', { name: 'Sign in to the dashboard' }).waitFor();
    await one.reload();
    await one.getByRole('heading', { name: 'Sign in to the dashboard' }).waitFor();
    // The reload's session probe answered 401: that is the session being over.
    expect(oneProblems.filter((p) => !p.startsWith('401 '))).toEqual([]);
    await first.close();
    await second.close();
  });
});
