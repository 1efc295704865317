import { Browser, Page } from 'playwright-core';
import { cardData, CARDS } from '../billing/billing-fixtures';
import { TimeClient, timeStack } from '../billing/renewal-fixtures';
import { launchBrowser, scrollWidth, shot, watchProblems } from '../payment-links/browser';
import { TestStack } from '../support/stack';
import { waitUntil } from '../support/wait';
import { fromDashboard, PASSWORD } from './dashboard-client';

jest.setTimeout(240_000);

/**
 * The home page, where sign-in lands: the merchant's payments and what dunning recovered, as charts over a date
 * range, with the figures the server counted (subscriptions driven through dunning by the sandbox clock).
 * Screenshots: test-output/screenshots/dashboard-home-{desktop,phone}.png.
 */
describe('the dashboard home page (gateway → payments, billing)', () => {
  let stack: TestStack;
  let c: TimeClient;
  let browser: Browser;
  let expiredId: string;

  beforeAll(async () => {
    stack = await timeStack();
    c = await TimeClient.start(stack, '2028-01-10T00:00:00Z');
    const basic = await c.m.plan({ name: 'Basic', amount: 1700, currency: 'EUR' });
    const pro = await c.m.plan({ name: 'Pro', amount: 2500, currency: 'EUR' });
    const enrol = async (email: string, planId: number, card: string) =>
      (await c.m.subscription({ planId, customerEmail: email, card: cardData(card) })).id as string;
    const funds = await enrol('funds@customer.example', basic.id, CARDS.mitInsufficientFunds);
    await enrol('fraud@customer.example', pro.id, CARDS.mitFraud);
    expiredId = await enrol('expired@customer.example', basic.id, CARDS.mitExpired);
    await enrol('fine@customer.example', pro.id, '4111111111111111');
    await c.advance({ to: '2028-02-10T12:00:00Z' });
    expect((await c.op(funds, 'payment-method', { card: cardData() })).body).toMatchObject({ status: 'active' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  async function signedInOwner(width: number, height: number): Promise<{ page: Page; problems: string[] }> {
    const email = `owner-${Math.random().toString(36).slice(2, 8)}@shop.example`;
    const invite = await stack.admin('POST', '/dashboard-users', {
      email,
      memberships: [{ merchantCode: c.m.merchantCode, role: 'owner' }],
    });
    const token = String(invite.body.inviteUrl).split('#/invite/')[1];
    const accepted = await stack.http('POST', '/dashboard/api/invitations/accept', {
      headers: fromDashboard(stack),
      body: { token, password: PASSWORD },
    });
    expect(accepted.status).toBe(200);
    const context = await browser.newContext({ viewport: { width, height } });
    const page = await context.newPage();
    const problems = watchProblems(page);
    await page.goto(`${stack.url}/dashboard#/sign-in`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
    problems.length = 0; // the session probe before signing in answered 401
    return { page, problems };
  }

  const loaded = (page: Page) =>
    waitUntil('the figures to load', async () => (await page.locator('[aria-busy="true"]').count()) === 0);

  it('lands on the home page after sign-in: totals, charts and the invoice in dunning, over a chosen range', async () => {
    const { page, problems } = await signedInOwner(1280, 900);
    expect(new URL(page.url()).hash).toBe('#/home');
    await loaded(page);
    // The default range: the last 30 days of the sandbox clock (now 2028-02-10).
    await expect(page.getByLabel('From', { exact: true }).inputValue()).resolves.toBe('2028-01-12');
    await expect(page.getByLabel('To', { exact: true }).inputValue()).resolves.toBe('2028-02-10');
    const payments = page.getByRole('list', { name: 'Payment totals' });
    await expect(payments.textContent()).resolves.toMatch(
      /Volume42\.00 EUR.*Approval rate40%2 of 5 approved.*Declined3/,
    );
    const recovery = page.getByRole('list', { name: 'Recovery totals' });
    await expect(recovery.textContent()).resolves.toMatch(
      /Recovered revenue17\.00 EUR1 invoice\(s\).*Recovery rate33\.3%1 of 3 in dunning; 1 lost, 1 open.*In dunning now1/,
    );
    // One bar a day; the recovered revenue's bar is on February 10.
    const recovered = page.getByRole('img', { name: 'Recovered revenue by day, 2028-01-12 to 2028-02-10' });
    await expect(recovered.locator('rect.bar').count()).resolves.toBe(30);
    await expect(recovered.locator('rect.bar title').last().textContent()).resolves.toBe('Feb 10: 17.00 EUR');
    const declines = page.getByRole('img', { name: 'Declined payments by refusal reason' });
    await expect(declines.locator('text').allTextContents()).resolves.toEqual([
      ...['51 Insufficient funds', '1', '54 Expired card', '1', '59 Suspected fraud', '1'],
    ]);
    const byReason = page.getByRole('img', { name: 'Recovery rate by the refusal reason that started dunning' });
    await expect(byReason.locator('text').allTextContents()).resolves.toEqual([
      ...['51 Insufficient funds', '100% (1 of 1)', '54 Expired card', '0% (0 of 1)'],
      ...['59 Suspected fraud', '0% (0 of 1)'],
    ]);
    await expect(
      page
        .getByRole('img', { name: 'Recovery rate by the connection that declined' })
        .locator('text')
        .allTextContents(),
    ).resolves.toEqual(['sandbox', '33.3% (1 of 3)']);
    const inDunning = page.getByRole('table', { name: 'Invoices in dunning' });
    const row = inDunning.getByRole('row', { name: /expired@customer\.example/ });
    await expect(row.textContent()).resolves.toMatch(
      /17\.00 EUR.*54 Expired card.*1 charge\(s\).*Retry 2028-02-11 00:00/,
    );
    await shot(page, 'dashboard-home-desktop');

    // A range with the enrolments only: January's figures, counted again by the server.
    await page.getByLabel('From', { exact: true }).fill('2028-01-01');
    await page.getByLabel('To', { exact: true }).fill('2028-01-31');
    await waitUntil('January', async () => (await payments.textContent())?.includes('84.00 EUR') ?? false);
    await loaded(page);
    await expect(payments.textContent()).resolves.toMatch(/Approval rate100%4 of 4 approved.*Declined0/);
    await expect(page.getByText('No declines in this range.').count()).resolves.toBe(1);
    await expect(recovery.textContent()).resolves.toMatch(/Recovered revenue0\.00 EUR0 invoice/);
    // The invoices in dunning are those of now, whatever the range.
    await inDunning.getByRole('link', { name: 'expired@customer.example' }).click();
    await page.getByRole('heading', { name: /Subscription of expired@customer\.example/ }).waitFor();
    expect(new URL(page.url()).hash).toBe(`#/subscriptions/${expiredId}`);
    expect(problems).toEqual([]);
  });

  it('reads on a phone: no sideways scrolling at 390 px', async () => {
    const { page, problems } = await signedInOwner(390, 844);
    await loaded(page);
    await page.getByRole('img', { name: /Recovered revenue by day/ }).waitFor();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
    await shot(page, 'dashboard-home-phone');
    expect(problems).toEqual([]);
  });
});
