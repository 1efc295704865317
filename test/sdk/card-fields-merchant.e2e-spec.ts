import { Browser, BrowserContext, Page } from 'playwright-core';
import { cardData, expectError, FUTURE, PaymentsClient, sandboxMerchant } from '../payments/payments-fixtures';
import { launchBrowser, merchantSite, shot } from '../payment-links/browser';
import { freePort } from '../support/ports';
import { TestStack } from '../support/stack';
import { fieldInput, shopPage } from './card-fields-page';

const VISA = '4111111111111111';
const YY = FUTURE.expiryYear.slice(2);

/**
 * A card-field frame makes nonces for the one merchant whose registered origin it was served to, whatever a
 * script on the shop's page posts to it: shop A's page carries a script that holds a client token of
 * merchant B (an attacker's own account) and tries to have the card typed into A's fields become B's nonce.
 */
describe('card fields serve the merchant they were opened for', () => {
  let stack: TestStack;
  let a: PaymentsClient;
  let b: PaymentsClient;
  let browser: Browser;
  let shop: { url: string; close: () => Promise<void> };
  let context: BrowserContext;
  let page: Page;
  /** The nonce requests the frames made. */
  let nonceRequests: string[];

  beforeAll(async () => {
    const port = await freePort();
    stack = await TestStack.start({
      services: ['payments'],
      env: { PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}` },
    });
    a = await sandboxMerchant(stack);
    b = await sandboxMerchant(stack);
    shop = await merchantSite(shopPage(stack.url));
    const allowedOrigins = [new URL(shop.url).origin];
    expect((await stack.admin('PUT', `/merchants/${a.merchantCode}/allowed-origins`, { allowedOrigins })).status).toBe(
      200,
    );
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await shop?.close();
    await stack.stop();
  });

  beforeEach(async () => {
    context = await browser.newContext({ viewport: { width: 640, height: 640 } });
    page = await context.newPage();
    nonceRequests = [];
    context.on('request', (r) => {
      if (r.url().endsWith('/v1/sdk/nonce')) nonceRequests.push(r.headers()['x-payments-field-merchant'] ?? '');
    });
  });
  afterEach(async () => context.close());

  async function clientToken(m: PaymentsClient): Promise<string> {
    return (await stack.http('POST', '/v1/sdk/session', { key: m.key, body: {} })).body.clientToken;
  }

  async function fill(): Promise<void> {
    await fieldInput(page, 'number', 'Card number').fill(VISA);
    await fieldInput(page, 'expiry', 'Expiry date').fill(`${FUTURE.expiryMonth} / ${YY}`);
    await fieldInput(page, 'cvc', 'Security code').fill('123');
    await fieldInput(page, 'name', 'Name on card').fill('Ada Shopper');
  }

  it('ignores a client token posted after init: the nonce stays the shop’s merchant’s', async () => {
    await page.goto(shop.url);
    await page.evaluate(`window.mount(${JSON.stringify(await clientToken(a))}, {})`);
    // The injected script posts B's token to the card number's frame as the SDK posts its messages.
    const posted = await page.evaluate(`((token) => {
      const frame = document.querySelector('#number iframe');
      const url = new URL(frame.src);
      const channel = url.searchParams.get('channel');
      for (const type of ['update', 'init']) frame.contentWindow.postMessage({ type, channel, clientToken: token }, url.origin);
      return channel.length;
    })(${JSON.stringify(await clientToken(b))})`);
    expect(posted).toBe(24);
    await fill();
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.getByText('Nonce for visa ending 1111').waitFor();
    await shot(page, '26-card-fields-token-posted-after-init');
    const nonce: string = await page.evaluate('window.nonce.nonce');

    // B cannot pay with it; the shop's own merchant (the honest flow) can.
    expectError(await b.purchase({ card: { nonceData: { nonce } } }), 404, 'NOT_FOUND');
    expect(nonceRequests).toEqual([a.merchantCode]);
    const paid = await a.purchase({ card: { nonceData: { nonce } } });
    expect(paid.body).toMatchObject({ status: 'captured', card: { cardData: { brand: 'visa' } } });
    // A card the page collected itself goes from the page (another origin), which names no frame.
    const card = { cardNumber: VISA, ...FUTURE, cvv: '123' };
    const direct = await page.evaluate(`window.sdk.createNonce(${JSON.stringify(card)}).then((r) => r.nonce)`);
    expect(direct).toMatch(/^nonce_/);
  });

  it('a frame opened for the shop’s merchant refuses another merchant’s token at init', async () => {
    await page.goto(shop.url);
    // The script builds the frames itself, for merchant A (whose origin the shop registered), and hands
    // them B's token: the frames load, the payer types, but no nonce is made.
    await page.evaluate(`((token, gateway, merchant) => {
      const channel = 'ef'.repeat(12);
      window.tokenized = new Promise((resolve) => {
        window.addEventListener('message', (e) => {
          const m = e.data;
          if (e.origin !== gateway || !m || m.source !== 'payments-field') return;
          if (m.type === 'ready') {
            e.source.postMessage({ type: 'init', channel, ...(m.field === 'cardNumber' ? { clientToken: token } : {}) }, gateway);
          }
          if (m.type === 'tokenized') resolve(m);
        });
      });
      window.evilFrames = {};
      for (const [field, id] of [['cardNumber', 'number'], ['cardExpiry', 'expiry']]) {
        const q = new URLSearchParams({ field, merchant, origin: location.origin, channel });
        const frame = document.createElement('iframe');
        frame.src = gateway + '/v1/sdk/fields/frame?' + q;
        frame.style.height = '24px';
        frame.style.border = '0';
        document.getElementById(id).appendChild(frame);
        window.evilFrames[field] = frame;
      }
      window.ask = () => {
        window.evilFrames.cardNumber.contentWindow.postMessage(
          { type: 'tokenize', channel, requestId: 'r1', fields: ['cardNumber', 'cardExpiry'] }, gateway);
        return window.tokenized;
      };
    })(${JSON.stringify(await clientToken(b))}, ${JSON.stringify(stack.url)}, ${JSON.stringify(a.merchantCode)})`);
    await fieldInput(page, 'number', 'Card number').fill(VISA);
    await fieldInput(page, 'expiry', 'Expiry date').fill(`${FUTURE.expiryMonth} / ${YY}`);
    const answer = await page.evaluate('window.ask()');
    expect(answer).toMatchObject({ type: 'tokenized', error: { code: 'AUTH_INSUFFICIENT_SCOPE' } });
    expect(answer).not.toHaveProperty('nonce');
    // The frame refused before asking the gateway: the card never left it.
    expect(nonceRequests).toEqual([]);
    await page.evaluate(
      `document.getElementById('result').textContent = ${JSON.stringify(
        (answer as { error: { message: string } }).error.message,
      )}`,
    );
    await shot(page, '27-card-fields-foreign-token-at-init');
  });

  it('the gateway refuses a nonce whose token is of another merchant than the frame names', async () => {
    const named = (m: PaymentsClient) => ({ 'x-payments-field-merchant': m.merchantCode });
    const refused = await stack.http('POST', '/v1/sdk/nonce', {
      key: await clientToken(b),
      body: cardData(),
      headers: named(a),
    });
    expectError(refused, 403, 'AUTH_INSUFFICIENT_SCOPE');
    const own = await stack.http('POST', '/v1/sdk/nonce', {
      key: await clientToken(b),
      body: cardData(),
      headers: named(b),
    });
    expect(own.status).toBe(201);
    // A request from the gateway's own origin is a frame's: it cannot leave its merchant out.
    const unnamed = await stack.http('POST', '/v1/sdk/nonce', {
      key: await clientToken(b),
      body: cardData(),
      headers: { 'sec-fetch-site': 'same-origin' },
    });
    expectError(unnamed, 403, 'AUTH_INSUFFICIENT_SCOPE');
    // The SDK's createNonce(card) from the merchant's own page names no frame.
    const direct = await stack.http('POST', '/v1/sdk/nonce', {
      key: await clientToken(a),
      body: cardData(),
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(direct.status).toBe(201);
  });
});
