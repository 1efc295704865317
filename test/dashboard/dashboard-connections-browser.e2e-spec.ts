import { createServer } from 'node:net';
import { Browser } from 'playwright-core';
import { launchBrowser, scrollWidth, shot } from '../payment-links/browser';
import { expectError, PaymentsClient, sandboxMerchant } from '../payments/payments-fixtures';
import { TestStack } from '../support/stack';
import { signedInBrowser } from './browser-session';

/** A loopback port nothing listens on: calls to it are refused, as an unreachable provider's would be. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * The Connections page in headless Chromium: a support user sees the merchant's connections in routing order
 * with the health real payments left (the simulator healthy, a Stripe connection that failed once degraded, an
 * Adyen one that failed five times open), and the plain empty state of production.
 */
describe('the Connections page in a browser (gateway → payments)', () => {
  let stack: TestStack;
  let shop: PaymentsClient;
  let browser: Browser;

  beforeAll(async () => {
    // Billing too: sign-in lands on the home page, whose recovery figures come from billing.
    stack = await TestStack.start({ services: ['payments', 'billing'] });
    shop = await sandboxMerchant(stack);
    const add = async (body: Record<string, unknown>) => {
      const r = await stack.admin('POST', `/merchants/${shop.merchantCode}/connections`, {
        environment: 'sandbox',
        methods: ['card'],
        endpoint: `http://127.0.0.1:${await closedPort()}`,
        ...body,
      });
      expect(r.status).toBe(201);
    };
    await add({
      connectionCode: 'adyen-gb',
      connectionName: 'Adyen UK',
      acquirer: 'adyen',
      currencies: ['GBP'],
      priority: 10,
      credentials: {
        apiKey: 'AQEyhmfxLI3MaBFLw0m-adyen-secret-AB12',
        merchantAccount: 'AcmeECOM',
        hmacKey: '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056',
      },
    });
    await add({
      connectionCode: 'stripe-eu',
      connectionName: 'Stripe Europe',
      acquirer: 'stripe',
      currencies: ['EUR'],
      priority: 20,
      credentials: { apiKey: 'sk_test_51SecretStripeKeyQ7rT', webhookSecret: 'whsec_SecretSigningSecret3Lm' },
    });
    for (let i = 0; i < 3; i++) expect((await shop.purchase()).body.status).toBe('captured');
    const through = (connectionCode: string, currency: string) => ({
      connectionCode,
      amount: { value: 1000, currency, exponent: 2 },
    });
    for (let i = 0; i < 5; i++)
      expectError(await shop.purchase(through('adyen-gb', 'GBP')), 503, 'SERVICE_UNAVAILABLE');
    expectError(await shop.purchase(through('stripe-eu', 'EUR')), 503, 'SERVICE_UNAVAILABLE');
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('a support user opens Connections and reads each connection’s health; production says it has none', async () => {
    const { context, page, problems } = await signedInBrowser(stack, browser, shop.merchantCode, 'support');
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Connections' }).click();
    await page.getByRole('heading', { name: 'Connections (sandbox)', level: 1 }).waitFor();
    const rows = page.getByRole('table', { name: 'Connections' }).locator('tbody tr');
    await rows.first().waitFor();
    const texts = await rows.allTextContents();
    expect(texts).toHaveLength(3);
    // Routing order: by priority, the default simulator (1000) last.
    expect(texts[0]).toMatch(/^1Adyen\s*Adyen UK/);
    expect(texts[0]).toContain('open');
    expect(texts[0]).toContain('100 %');
    expect(texts[0]).toContain('unreachable');
    expect(texts[0]).toContain('API key ••••AB12');
    expect(texts[1]).toMatch(/^2Stripe\s*Stripe Europe/);
    expect(texts[1]).toContain('degraded');
    expect(texts[1]).toContain('closed');
    expect(texts[1]).toContain('webhook secret ••••t3Lm');
    expect(texts[2]).toMatch(/^3Simulator/);
    expect(texts[2]).toContain('healthy');
    expect(texts[2]).toContain('0 %of 3 calls');
    const badges = await page.locator('tbody .status').allTextContents();
    expect(badges).toEqual(['open', 'degraded', 'healthy']);
    for (const secret of ['adyen-secret', 'SecretStripeKey', 'SecretSigningSecret', '127.0.0.1']) {
      expect(await page.content()).not.toContain(secret);
    }
    await shot(page, 'dashboard-connections');
    expect(await scrollWidth(page)).toBeLessThanOrEqual(1280);

    await page.getByLabel('Production').check();
    await page.getByRole('heading', { name: 'Connections (production)', level: 1 }).waitFor();
    await page
      .getByRole('status')
      .filter({ hasText: 'No production connection yet: payments are refused with NO_CONNECTION' })
      .waitFor();
    await shot(page, 'dashboard-connections-production');
    expect(problems).toEqual([]);
    await context.close();
  });
});
