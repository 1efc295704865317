import { Browser } from 'playwright-core';
import { launchBrowser, shot } from '../payment-links/browser';
import { cardData, CARDS } from '../billing/billing-fixtures';
import { TimeClient, timeStack } from '../billing/renewal-fixtures';
import { TestStack } from '../support/stack';
import { signedInBrowser } from './browser-session';

jest.setTimeout(120_000);

/**
 * A subscription's page says where dunning stands (the last decline with its code, reason and connection, what
 * it waits for, the next attempt, the policy version) and offers only what the API would do.
 */
describe('subscription dunning in the dashboard (browser)', () => {
  let stack: TestStack;
  let browser: Browser;

  beforeAll(async () => {
    stack = await timeStack();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('past_due waiting for a card, past_due with a retry scheduled, and suspended', async () => {
    const c = await TimeClient.start(stack, '2028-01-10T00:00:00Z');
    const policy = await stack.http('PUT', '/v1/subscription/recovery-policy', {
      key: c.m.key,
      body: { switchMethod: 'after_new_payment_method' },
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    expect(policy.status).toBe(200);
    const plan = await c.m.plan({ amount: 1500 });
    const waiting = await c.m.subscription({ planId: plan.id, card: cardData(CARDS.mitExpired) });
    const retrying = await c.m.subscription({ planId: plan.id, card: cardData(CARDS.mitInsufficientFunds) });
    const fraud = await c.m.subscription({ planId: plan.id, card: cardData(CARDS.mitFraud) });
    await c.advance({ to: '2028-02-10T01:00:00Z' });
    expect((await c.sub(waiting.id)).dunning).toMatchObject({ waitingFor: 'payment_method' });
    expect((await c.sub(retrying.id)).dunning).toMatchObject({ waitingFor: 'scheduled_retry' });
    expect((await c.sub(fraud.id)).status).toBe('suspended');

    const { context, page, problems } = await signedInBrowser(stack, browser, c.m.merchantCode, 'owner');
    const open = async (id: string) => {
      await page.goto(`${stack.url}/dashboard#/subscriptions/${id}`);
      await page.getByRole('heading', { name: /Subscription of/ }).waitFor();
    };

    await open(waiting.id);
    const dunning = page.locator('dl[aria-label="Dunning"]');
    await dunning.waitFor();
    const waitingText = await dunning.textContent();
    expect(waitingText).toContain('54 Expired card (switch method) on connection sandbox');
    expect(waitingText).toContain('a new payment method');
    expect(waitingText).toContain('none scheduled');
    expect(waitingText).toMatch(/Policy version\s*1/);
    await expect(page.getByRole('button', { name: 'Retry payment' }).count()).resolves.toBe(1);
    await shot(page, 'dashboard-dunning-waiting-for-card');

    await open(retrying.id);
    await dunning.waitFor();
    const retryingText = await dunning.textContent();
    expect(retryingText).toContain('51 Insufficient funds');
    expect(retryingText).toContain('the next scheduled retry');
    expect(retryingText).toContain('2028-02-11');
    await shot(page, 'dashboard-dunning-scheduled');

    await open(fraud.id);
    await page.getByText(/Suspended .*retries ended/).waitFor();
    // The API refuses a retry of a suspended subscription (409): the page does not offer it.
    await expect(page.getByRole('button', { name: 'Retry payment' }).count()).resolves.toBe(0);
    expect((await c.op(fraud.id, 'retry-payment')).status).toBe(409);
    await shot(page, 'dashboard-dunning-suspended');
    expect(problems).toEqual([]);
    await context.close();
  });
});
