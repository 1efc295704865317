import { Browser, BrowserContext, Page } from 'playwright-core';
import { FUTURE } from '../payments/payments-fixtures';
import { queryRows } from '../support/db';
import { freePort } from '../support/ports';
import { SmtpSink } from '../support/smtp-sink';
import { TestStack } from '../support/stack';
import { launchBrowser, scrollWidth, shot, watchProblems } from '../payment-links/browser';
import { CARDS, cardData, expectError } from './billing-fixtures';
import { TimeClient } from './renewal-fixtures';

const EXPIRY = `${FUTURE.expiryMonth} / ${FUTURE.expiryYear.slice(2)}`;

/** A customer fixes their own card: the merchant's card-update link, opened and used in headless Chromium. */
describe('card-update link in a browser', () => {
  let stack: TestStack;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];
  let sink: SmtpSink;

  beforeAll(async () => {
    sink = await SmtpSink.start();
    const port = await freePort();
    stack = await TestStack.start({
      services: ['payments', 'payment-links', 'billing'],
      env: {
        PORT: String(port),
        PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
        RENEWAL_POLL_MS: '0',
        ...sink.env(),
      },
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    await sink?.stop();
  });
  afterEach(async () => {
    await context?.close();
    expect(problems).toEqual([]);
  });

  async function open(url: string, width: number): Promise<number> {
    context = await browser.newContext({ viewport: { width, height: 900 } });
    page = await context.newPage();
    problems = watchProblems(page);
    return (await page.goto(url))!.status();
  }

  const cardInput = (label: string) => page.frameLocator(`iframe[title="${label}"]`).getByLabel(label);
  const gatewayDb = (sql: string, params: unknown[]) => queryRows(stack.env.GATEWAY_DATABASE_URL, sql, params);

  /** A subscription on the card that declines merchant-initiated charges, past due after its first renewal. */
  async function pastDue(c: TimeClient, customerEmail = 'jane@example.com'): Promise<Record<string, any>> {
    const plan = await c.m.plan({ name: 'Pro monthly', amount: 1500 });
    const s = await c.m.subscription({ planId: plan.id, customerEmail, card: cardData(CARDS.mitInsufficientFunds) });
    await c.advance({ to: '2028-02-10T01:00:00Z' });
    expect((await c.sub(s.id)).status).toBe('past_due');
    return s;
  }

  const linkFor = (c: TimeClient, id: string, key?: string) =>
    c.m.post(`/v1/subscription/${id}/card-update-link`, { merchantCode: c.m.merchantCode }, key);

  it('emails the link on the decline; the customer types a new card in the frames, the invoice is paid, the link is used', async () => {
    const c = await TimeClient.start(stack, '2028-01-10T00:00:00Z');
    const settings = '/v1/subscription/settings/card-update-emails';
    expect((await c.m.get(settings)).body).toEqual({ enabled: false });
    const on = await stack.http('PUT', settings, { key: c.m.key, body: { enabled: true } });
    expect(on.body).toEqual({ enabled: true });
    const email = `jane-${c.m.merchantCode}@example.com`;
    const s = await pastDue(c, email);

    const mail = await sink.waitFor(email, /Update your card/);
    expect(mail.text).toContain('Pro monthly');
    expect(mail.text).toContain('$15.00');
    const url = /(http\S+\/card-update\/[A-Za-z0-9_-]+)/.exec(mail.text)![1];
    const token = url.split('/card-update/')[1];
    const sends = await gatewayDb('SELECT template, outcome FROM mail_sends WHERE to_address = $1', [email]);
    expect(sends).toEqual([{ template: 'card_update', outcome: 'sent' }]);
    // The token is stored only as its hash.
    const rows = await gatewayDb('SELECT * FROM card_update_links WHERE subscription_id = $1', [s.id]);
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(token);

    expect(await open(url, 390)).toBe(200);
    await page.getByRole('heading', { name: 'Update your card' }).waitFor();
    await expect(page.locator('#amount-due').textContent()).resolves.toContain('$15.00');
    await expect(page.getByText('Subscription: Pro monthly').isVisible()).resolves.toBe(true);
    expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
    await shot(page, 'card-update-01-form-390');
    await page.getByLabel('Name on card').fill('Jane Payer');
    await cardInput('Card number').fill('4111111111111111');
    await cardInput('Expiry date').fill(EXPIRY);
    await cardInput('Security code').fill('123');
    // The card number is typed into the gateway's frame, never into the page.
    expect(await page.content()).not.toContain('4111111111111111');
    await page.getByRole('button', { name: 'Update card and pay $15.00' }).click();
    await page.getByText('Your card is updated').waitFor();
    await expect(page.locator('#success-detail').textContent()).resolves.toContain('subscription is active');
    await shot(page, 'card-update-02-done-390');

    expect((await c.sub(s.id)).status).toBe('active');
    const [, renewal] = await c.invoices(s.id);
    expect(renewal).toMatchObject({ status: 'paid' });
    await context.close();

    // Used: the page says so, and the submit route refuses.
    expect(await open(url, 1280)).toBe(410);
    await expect(page.locator('#unavailable').textContent()).resolves.toContain('already been used');
    await shot(page, 'card-update-03-used-1280');
    const again = await stack.http('POST', `/v1/card-update/${token}`, { body: { nonce: 'x' } });
    expectError(again, 409, 'INVALID_STATE');
  });

  it('the merchant makes a link through the API (idempotent); an expired link is refused', async () => {
    const c = await TimeClient.start(stack, '2028-01-10T00:00:00Z');
    const s = await pastDue(c);
    // Emails are off for this merchant: nothing was sent.
    expect(sink.to('jane@example.com')).toEqual([]);
    const created = await linkFor(c, s.id, 'card-update-1');
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ subscriptionId: s.id, url: expect.stringContaining('/card-update/') });
    // The same Idempotency-Key answers the same link.
    expect((await linkFor(c, s.id, 'card-update-1')).body).toEqual(created.body);
    expect(await open(created.body.url, 1280)).toBe(200);
    await page.getByRole('heading', { name: 'Update your card' }).waitFor();
    await shot(page, 'card-update-04-form-1280');
    await context.close();

    await gatewayDb("UPDATE card_update_links SET expires_at = now() - interval '1 second' WHERE id = $1", [
      created.body.id,
    ]);
    expect(await open(created.body.url, 1280)).toBe(410);
    await expect(page.locator('#unavailable').textContent()).resolves.toContain('expired');
    const token = created.body.url.split('/card-update/')[1];
    expectError(await stack.http('POST', `/v1/card-update/${token}`, { body: { nonce: 'x' } }), 409, 'INVALID_STATE');
    expect((await c.sub(s.id)).status).toBe('past_due');
  });

  it('refuses an unknown token, and a link for a cancelled subscription', async () => {
    problems = [];
    expectError(
      await stack.http('POST', `/v1/card-update/${'a'.repeat(43)}`, { body: { nonce: 'x' } }),
      404,
      'NOT_FOUND',
    );
    const c = await TimeClient.start(stack);
    const plan = await c.m.plan();
    const s = await c.m.subscription({ planId: plan.id });
    expect((await c.op(s.id, 'cancel')).status).toBe(200);
    expectError(await linkFor(c, s.id), 409, 'INVALID_STATE');
  });
});
