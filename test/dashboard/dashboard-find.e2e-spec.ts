import { readFile } from 'node:fs/promises';
import { Browser, Page } from 'playwright-core';
import { launchBrowser, shot } from '../payment-links/browser';
import { cardData, PaymentsClient, sandboxMerchant, uid, usd } from '../payments/payments-fixtures';
import { TestStack } from '../support/stack';
import { signedInBrowser } from './browser-session';

/**
 * Finding and accounting in the dashboard, in headless Chromium against the real suite: the server searches
 * the whole list, a partly refunded payment says so and lists its refunds with reason and who, the finance
 * team downloads a CSV.
 */
describe('the dashboard finds payments and accounts for them (browser)', () => {
  let stack: TestStack;
  let shop: PaymentsClient;
  let browser: Browser;

  beforeAll(async () => {
    [stack, shop] = await TestStack.startWith(sandboxMerchant);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  const tableRows = (page: Page) => page.getByRole('table', { name: 'Payments' }).locator('tbody tr');

  it('searches the whole list on the server: code prefix, email, last four, status, amount and date', async () => {
    const tag = uid();
    const target = await shop.purchase({
      orderCode: `find-${tag}`,
      amount: usd(4321),
      shopper: { email: 'Finder@Example.com' },
      card: cardData('5500005555555559'),
    });
    const declined = await shop.purchase({ orderCode: `other-${tag}`, card: cardData('4000000000000002') });
    // More than a page of newer payments: a filter on the page shown would not find the target.
    for (let i = 0; i < 22; i++) await shop.purchase();

    const { context, page, problems } = await signedInBrowser(stack, browser, shop.merchantCode, 'support');
    const form = page.getByRole('search', { name: 'Find payments' });
    await tableRows(page).nth(19).waitFor();
    await expect(tableRows(page).count()).resolves.toBe(20);

    await form.getByLabel('Order or payment code').fill(`find-${tag.slice(0, 4)}`);
    await form.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('link', { name: `find-${tag}` }).waitFor();
    await expect(tableRows(page).count()).resolves.toBe(1);

    await form.getByRole('button', { name: 'Clear' }).click();
    await form.getByLabel('Customer email').fill('finder@example.com');
    await form.getByLabel('Card last four').fill('5559');
    await form.getByLabel('Amount from').fill('43.00');
    await form.getByLabel('Amount to').fill('43.21');
    const today = new Date().toISOString().slice(0, 10);
    await form.getByLabel('From date').fill(today);
    await form.getByLabel('To date').fill(today);
    await form.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('link', { name: `find-${tag}` }).waitFor();
    await expect(tableRows(page).count()).resolves.toBe(1);
    await shot(page, 'dashboard-find-filters');

    await form.getByRole('button', { name: 'Clear' }).click();
    await form.getByLabel('Status').selectOption('declined');
    await form.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('link', { name: `other-${tag}` }).waitFor();
    await expect(tableRows(page).count()).resolves.toBe(1);
    expect(declined.body.status).toBe('declined');

    await form.getByLabel('Customer email').fill('nobody@example.com');
    await form.getByRole('button', { name: 'Search' }).click();
    await page.getByText('No payments match.').waitFor();
    expect(target.status).toBe(200);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a partial refund with a reason: partially refunded in the list and on the page, the refund listed with who and why', async () => {
    const paid = (await shop.purchase({ orderCode: `refund-${uid()}`, amount: usd(2000) })).body;
    const { context, page, problems, email } = await signedInBrowser(stack, browser, shop.merchantCode, 'support');
    await page.goto(`${stack.url}/dashboard#/payments/${paid.id}`);
    await page.getByRole('heading', { name: new RegExp(`Payment ${paid.orderCode}`) }).waitFor();
    await page.getByText('No refunds.').waitFor();
    await page.getByRole('button', { name: 'Refund' }).click();
    const dialog = page.getByRole('dialog', { name: 'Refund' });
    await dialog.getByLabel('Amount to refund (USD)').fill('7.50');
    await dialog.getByLabel('Reason (optional)').fill('Item arrived damaged');
    await shot(page, 'dashboard-refund-reason');
    await dialog.getByRole('button', { name: 'Confirm: Refund' }).click();
    await dialog.waitFor({ state: 'detached' });

    const refunds = page.getByRole('table', { name: 'Refunds' });
    await refunds.waitFor();
    const row = await refunds.locator('tbody tr').first().textContent();
    expect(row).toContain('7.50 USD');
    expect(row).toContain('Item arrived damaged');
    expect(row).toContain(`${email} (you)`);
    await expect(page.getByRole('heading', { name: /Payment/ }).textContent()).resolves.toContain('partially refunded');
    await shot(page, 'dashboard-partially-refunded');

    const api = (await shop.get(paid.id)).body;
    expect(api.status).toBe('captured');
    expect(api.refunds).toEqual([
      expect.objectContaining({
        reason: 'Item arrived damaged',
        refundedBy: expect.objectContaining({ type: 'dashboard_user' }),
      }),
    ]);

    await page.goto(`${stack.url}/dashboard#/payments`);
    const form = page.getByRole('search', { name: 'Find payments' });
    await form.getByLabel('Status').selectOption('partially_refunded');
    await form.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('link', { name: paid.orderCode }).waitFor();
    await expect(tableRows(page).first().textContent()).resolves.toContain('partially refunded');
    await shot(page, 'dashboard-list-partially-refunded');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('the finance team downloads payments and refunds as CSV for a date range', async () => {
    const paid = (await shop.purchase({ orderCode: `csv-${uid()}` })).body;
    await shop.operate(paid.id, 'refund', { amount: usd(100), reason: 'Goodwill, late delivery' });
    const { context, page, problems } = await signedInBrowser(stack, browser, shop.merchantCode, 'support');
    const panel = page.getByRole('region', { name: 'Export' });
    await panel.scrollIntoViewIfNeeded();
    await shot(page, 'dashboard-export');

    const [payments] = await Promise.all([
      page.waitForEvent('download'),
      panel.getByRole('button', { name: 'Export payments' }).click(),
    ]);
    expect(payments.suggestedFilename()).toMatch(/-sandbox-payments-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
    const paymentsCsv = await readFile(await payments.path(), 'utf8');
    expect(paymentsCsv.split('\r\n')[0]).toMatch(/^id,createdAt,paymentCode,orderCode,status/);
    expect(paymentsCsv).toContain(paid.orderCode);

    const [refunds] = await Promise.all([
      page.waitForEvent('download'),
      panel.getByRole('button', { name: 'Export refunds' }).click(),
    ]);
    const refundsCsv = await readFile(await refunds.path(), 'utf8');
    expect(refundsCsv).toContain(
      `${paid.id},${paid.paymentCode},${paid.orderCode},USD,2,100,"Goodwill, late delivery"`,
    );
    expect(problems).toEqual([]);
    await context.close();
  });
});
