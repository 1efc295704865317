import { Browser, BrowserContext, Page } from 'playwright-core';
import { FUTURE } from '../payments/payments-fixtures';
import { TestStack } from '../support/stack';
import { freePort } from '../support/ports';
import { focusedId, launchBrowser, merchantSite, scrollWidth, shot, watchProblems } from './browser';
import { APPROVED, CHALLENGE, DECLINED, LinksClient, linksMerchant } from './link-fixtures';
import { usd } from '../support/amounts';

const EXPIRY = `${FUTURE.expiryMonth} / ${FUTURE.expiryYear.slice(2)}`;

/** The hosted checkout in headless Chromium: the payer's view, end to end through the real stack. */
describe('hosted checkout in a browser', () => {
  let stack: TestStack;
  let m: LinksClient;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];

  beforeAll(async () => {
    const port = await freePort();
    stack = await TestStack.start({
      services: ['payments', 'payment-links', 'billing'],
      env: { PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}`, LINK_EXPIRY_SWEEP_MS: '0' },
    });
    m = await linksMerchant(stack);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await stack.stop();
  });

  beforeEach(async () => {
    context = await browser.newContext({ viewport: { width: 1024, height: 860 } });
    page = await context.newPage();
    problems = watchProblems(page);
  });
  afterEach(async () => {
    await context.close();
    // A CSP violation or a script error shows up in the console: the page must have none.
    expect(problems).toEqual([]);
  });

  // The card inputs are the SDK's card fields: each in its own frame served by the gateway.
  const cardInput = (label: string) => page.frameLocator(`iframe[title="${label}"]`).getByLabel(label);

  async function fillCard(card: string, name = 'Jane Payer'): Promise<void> {
    await page.getByLabel('Name on card').fill(name);
    await cardInput('Card number').fill(card);
    await cardInput('Expiry date').fill(EXPIRY);
    await cardInput('Security code').fill('123');
  }

  const status = async (id: string) => (await m.get(id)).body;

  it('pays a fixed link with an approved card and returns to the merchant', async () => {
    const returnUrl = `${stack.url}/health/live?order=1001`;
    const link = await m.link({ title: 'Blue ceramic mug', description: 'Hand-made, 350 ml', returnUrl });
    await page.goto(link.url.replace('http://localhost:3000', stack.url));
    await expect(page.getByRole('heading', { name: 'Blue ceramic mug' }).isVisible()).resolves.toBe(true);
    await expect(page.locator('#price').textContent()).resolves.toBe('$25.00');
    await shot(page, '01-fixed-form');
    await fillCard(APPROVED);
    await page.getByRole('button', { name: 'Pay $25.00' }).click();
    await page.getByText('Payment successful').waitFor();
    await expect(page.locator('#success-detail').textContent()).resolves.toContain('Paid 25.00 USD');
    await shot(page, '02-fixed-success');
    await page.waitForURL(returnUrl);
    expect((await status(link.id)).status).toBe('used');
  });

  it('pays a customer-entered amount within its bounds', async () => {
    const link = await m.link({
      amountMode: 'customer_entered',
      amount: usd(),
      amountMin: 500,
      amountMax: 50000,
      title: 'Donation',
    });
    await page.goto(`${stack.url}/checkout/${link.id}`);
    await expect(page.locator('#amount-hint').textContent()).resolves.toBe('Between $5.00 and $500.00');
    await page.getByLabel('Amount (USD)').fill('1000');
    await fillCard(APPROVED);
    await page.getByRole('button', { name: 'Pay' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('between 5.00 and 500.00 USD');
    await shot(page, '03-entered-out-of-bounds');
    await page.getByLabel('Amount (USD)').fill('12.34');
    await page.getByRole('button', { name: 'Pay 12.34 USD' }).click();
    await page.getByText('Payment successful').waitFor();
    await expect(page.locator('#success-detail').textContent()).resolves.toContain('Paid 12.34 USD');
    await shot(page, '04-entered-success');
    const payments = await m.m.stack.http('GET', '/v1/payment', { key: m.key });
    expect(payments.body[0].amount).toEqual(usd(1234));
  });

  it('shows a declined card, keeps the link active, and a second try succeeds', async () => {
    const link = await m.link({ title: 'Running shoes' });
    await page.goto(`${stack.url}/checkout/${link.id}`);
    await fillCard(DECLINED);
    await page.getByRole('button', { name: 'Pay $25.00' }).click();
    const alert = page.getByRole('alert');
    await alert.getByText('Your card was declined').waitFor();
    // The payer is told it was declined, never the issuer's reason (a card tester's oracle).
    await expect(alert.textContent()).resolves.toBe('Your card was declined. Try again or use another card.');
    await shot(page, '05-declined');
    expect(await status(link.id)).toMatchObject({ status: 'active', usesCount: 0 });
    await cardInput('Card number').fill(APPROVED);
    await page.getByRole('button', { name: 'Pay $25.00' }).click();
    await page.getByText('Payment successful').waitFor();
    expect(await status(link.id)).toMatchObject({ status: 'used', usesCount: 1 });
  });

  it('names a wrong card detail from its field, marks it and moves the focus there', async () => {
    const link = await m.link({ title: 'Desk lamp' });
    await page.goto(`${stack.url}/checkout/${link.id}`);
    await fillCard(APPROVED);
    await cardInput('Card number').fill('4111 1111');
    await page.getByRole('button', { name: 'Pay $25.00' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toBe('Your card number is incomplete.');
    await expect(cardInput('Card number').getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(page.locator('#card-number').getAttribute('class')).resolves.toContain('payments-field--invalid');
    expect(await focusedId(page)).toBe('card-number');
    await shot(page, '13-card-field-error');
    expect(await status(link.id)).toMatchObject({ status: 'active', usesCount: 0 });
  });

  it('runs a 3DS challenge in a dialog and resumes through the link', async () => {
    const link = await m.link({ title: 'Weekend stay' });
    await page.goto(`${stack.url}/checkout/${link.id}`);
    await fillCard(CHALLENGE);
    await page.getByRole('button', { name: 'Pay $25.00' }).click();
    const dialog = page.getByRole('dialog', { name: 'Verify your payment with your bank' });
    await dialog.waitFor();
    const frame = page.frameLocator('iframe[title="Payment verification"]');
    await frame.getByRole('button', { name: 'Authenticate' }).waitFor();
    await shot(page, '06-3ds-challenge');
    await frame.getByRole('button', { name: 'Authenticate' }).click();
    await page.getByText('Payment successful').waitFor();
    await expect(dialog.count()).resolves.toBe(0);
    await shot(page, '07-3ds-success');
    expect(await status(link.id)).toMatchObject({ status: 'used', usesCount: 1 });
  });

  it('a subscription link enrolls the payer in the plan', async () => {
    const plan = await stack.http('POST', '/v1/subscription/plan', {
      key: m.key,
      body: { name: 'Coffee club', interval: 'month', amount: 1500, currency: 'USD', trialPeriodDays: 7 },
    });
    const link = await m.link({
      type: 'subscription',
      subscriptionPlanId: plan.body.id,
      amount: undefined,
      title: undefined,
    });
    await page.goto(`${stack.url}/checkout/${link.id}`);
    await page.getByRole('heading', { name: 'Coffee club' }).waitFor();
    await expect(page.locator('#price').textContent()).resolves.toBe('$15.00 per month');
    await page.getByLabel('Email').fill('sam@example.com');
    await fillCard(APPROVED, 'Sam Sub');
    await shot(page, '11-subscription-form');
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await page.getByText('You’re subscribed').waitFor();
    await shot(page, '12-subscription-success');
    const subs = await stack.http('GET', `/v1/subscription?planId=${plan.body.id}`, { key: m.key });
    expect(subs.body).toHaveLength(1);
    expect(subs.body[0]).toMatchObject({ customerEmail: 'sam@example.com', status: 'trialing' });
    expect(await status(link.id)).toMatchObject({ status: 'used', usesCount: 1 });
  });

  it('an expired link says it is no longer available', async () => {
    const link = await m.link({ title: 'Flash sale', expiresAt: new Date(Date.now() + 500).toISOString() });
    await new Promise((r) => setTimeout(r, 700));
    const response = await page.goto(`${stack.url}/checkout/${link.id}`);
    expect(response!.status()).toBe(410);
    await page.getByRole('heading', { name: 'This link is no longer available' }).waitFor();
    await expect(page.getByText('This payment link has expired.').isVisible()).resolves.toBe(true);
    await expect(page.locator('form').count()).resolves.toBe(0);
    await shot(page, '08-expired');
  });

  it('can be paid with the keyboard alone: Tab reaches every field and the button in order', async () => {
    const link = await m.link({
      amountMode: 'customer_entered',
      amount: usd(),
      amountMin: 100,
      amountMax: 10000,
      title: 'Tip jar',
    });
    await page.goto(`${stack.url}/checkout/${link.id}`);
    const order: string[] = [];
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab');
      order.push(await focusedId(page));
    }
    expect(order).toEqual(['amount', 'cardholder', 'card-number', 'card-expiry', 'card-cvc', 'pay-button']);
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.type('7.50');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Kim Keys');
    await page.keyboard.press('Tab');
    await page.keyboard.type(APPROVED);
    await page.keyboard.press('Tab');
    await page.keyboard.type(`${FUTURE.expiryMonth}${FUTURE.expiryYear.slice(2)}`);
    await page.keyboard.press('Tab');
    await page.keyboard.type('123');
    await page.keyboard.press('Tab');
    await shot(page, '09-keyboard-focus-on-pay');
    await page.keyboard.press('Enter');
    await page.getByText('Payment successful').waitFor();
    expect(await focusedId(page)).toBe('success-title');
  });

  it('the SDK on a merchant’s own page: nonce in the browser, purchase from the server, 3DS and resume', async () => {
    const session = await stack.http('POST', '/v1/sdk/session', { key: m.key, body: {} });
    // The merchant's page is on its own origin: the SDK's calls to the gateway are cross-origin (CORS).
    const shop = await merchantSite(`<!doctype html><html lang="en"><head><title>Shop</title>
      <script src="${stack.url}/v1/sdk/js"></script></head><body><h1>My shop</h1></body></html>`);
    await page.goto(shop.url);
    const card = {
      cardNumber: '4000 0025 0000 3155',
      expiryMonth: FUTURE.expiryMonth,
      expiryYear: FUTURE.expiryYear,
      cvv: '123',
    };
    const nonce = await page.evaluate<{ nonce: string }>(
      `(window.sdk = PaymentsSDK.init({ clientToken: ${JSON.stringify(session.body.clientToken)} })).createNonce(${JSON.stringify(card)})`,
    );
    expect(nonce.nonce).toMatch(/^nonce_/);
    const purchase = await m.m.purchase({ card: { nonceData: { nonce: nonce.nonce } } });
    expect(purchase.body.status).toBe('pending_3ds');
    await page.evaluate(`window.done = window.sdk.handleAction(${JSON.stringify(purchase.body.actionRequired)}); 1`);
    await page
      .frameLocator('iframe[title="Payment verification"]')
      .getByRole('button', { name: 'Authenticate' })
      .click();
    const payment = await page.evaluate<{ id: string; status: string }>('window.done');
    expect(payment).toMatchObject({ id: purchase.body.id, status: 'captured' });
    await shop.close();
  });

  it('fits a phone screen', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const mobile = await phone.newPage();
    const link = await m.link({ title: 'Yoga class, 10 sessions', description: 'Valid for three months' });
    await mobile.goto(`${stack.url}/checkout/${link.id}`);
    const width = await scrollWidth(mobile);
    expect(width).toBeLessThanOrEqual(390);
    await shot(mobile, '10-mobile');
    await phone.close();
  });
});
