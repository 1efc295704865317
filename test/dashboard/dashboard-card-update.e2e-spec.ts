import { Browser, BrowserContext, Page } from 'playwright-core';
import { BillingClient, billingMerchant } from '../billing/billing-fixtures';
import { launchBrowser, shot, watchProblems } from '../payment-links/browser';
import { TestStack } from '../support/stack';
import { waitUntil } from '../support/wait';
import { fromDashboard, PASSWORD } from './dashboard-client';

/** The card-update link and the card-update emails switch in the dashboard, as an owner in Chromium. */
describe('dashboard: card-update link and emails switch', () => {
  let stack: TestStack;
  let billing: BillingClient;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];

  beforeAll(async () => {
    stack = await TestStack.start({ services: ['payments', 'billing'] });
    billing = await billingMerchant(stack);
    browser = await launchBrowser();
    const email = `owner-${Math.random().toString(36).slice(2, 8)}@shop.example`;
    const invite = await stack.admin('POST', '/dashboard-users', {
      email,
      memberships: [{ merchantCode: billing.merchantCode, role: 'owner' }],
    });
    const token = String(invite.body.inviteUrl).split('#/invite/')[1];
    const accepted = await stack.http('POST', '/dashboard/api/invitations/accept', {
      headers: fromDashboard(stack),
      body: { token, password: PASSWORD },
    });
    expect(accepted.status).toBe(200);
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.url });
    page = await context.newPage();
    problems = watchProblems(page);
    await page.goto(`${stack.url}/dashboard#/sign-in`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Payments' }).waitFor();
    problems.length = 0; // the session probe before signing in answered 401
  });
  afterEach(() => expect(problems.splice(0)).toEqual([]));
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await stack?.stop();
  });

  it('turns the emails on, makes a link on a subscription page and copies it', async () => {
    const plan = await billing.plan({ name: 'Gold monthly', amount: 2500 });
    const sub = await billing.subscription({ planId: plan.id, customerEmail: 'ada@customer.example' });
    await page.goto(`${stack.url}/dashboard#/subscriptions`);
    await page.getByRole('heading', { name: 'Subscriptions', level: 1 }).waitFor();
    const emails = page.getByLabel(/Email customers a card-update link/);
    await expect(emails.isChecked()).resolves.toBe(false);
    // The box shows the server's setting: it turns checked once the PUT is answered and the setting read again.
    await emails.click();
    await waitUntil('the switch on', () => emails.isChecked());
    const setting = await billing.get('/v1/subscription/settings/card-update-emails');
    expect(setting.body).toEqual({ enabled: true });

    await page.goto(`${stack.url}/dashboard#/subscriptions/${sub.id}`);
    await page.getByRole('heading', { name: /Subscription of ada@customer\.example/ }).waitFor();
    await page.getByRole('button', { name: 'Card-update link' }).click();
    const input = page.getByLabel(/Send this link to the customer/);
    await input.waitFor();
    const url = await input.inputValue();
    // On PUBLIC_BASE_URL (this stack leaves it at its default).
    expect(url).toMatch(/^http:\/\/localhost:\d+\/card-update\/[A-Za-z0-9_-]{43}$/);
    await page.getByRole('button', { name: 'Copy link' }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    await expect(page.evaluate<string>('navigator.clipboard.readText()')).resolves.toBe(url);
    await shot(page, 'dashboard-card-update-link-1280');
    await page.setViewportSize({ width: 390, height: 900 });
    await shot(page, 'dashboard-card-update-link-390');
    await page.setViewportSize({ width: 1280, height: 900 });
    expect((await stack.http('GET', new URL(url).pathname)).status).toBe(200);
  });
});
