import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { FUTURE, PaymentsClient, sandboxMerchant } from '../payments/payments-fixtures';
import { focusedId, launchBrowser, merchantSite, shot } from '../payment-links/browser';
import { freePort } from '../support/ports';
import { TestStack } from '../support/stack';
import { fieldInput, publishedSdk, shopPage } from './card-fields-page';

const VISA = '4111111111111111';
const AMEX = '378282246310005';
const CHALLENGE = '4000002500003155';
const YY = FUTURE.expiryYear.slice(2);

/** A computed style of an element (the tests compile without the DOM library). */
const computed = (l: Locator, property: string): Promise<string> =>
  l.evaluate((e, p) => (globalThis as any).getComputedStyle(e)[p], property);

/** The SDK's card fields on a merchant's own page (another origin than the gateway), in headless Chromium. */
describe('card fields on a merchant page', () => {
  let stack: TestStack;
  let m: PaymentsClient;
  let browser: Browser;
  let shop: { url: string; close: () => Promise<void> };
  let shopOrigin: string;
  let context: BrowserContext;
  let page: Page;
  /** What the merchant page itself sends and logs (its frames' traffic is the gateway's). */
  let pageTraffic: string[];

  beforeAll(async () => {
    const port = await freePort();
    stack = await TestStack.start({
      services: ['payments'],
      env: { PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}` },
    });
    m = await sandboxMerchant(stack);
    shop = await merchantSite(shopPage(stack.url));
    shopOrigin = new URL(shop.url).origin;
    const set = await stack.admin('PUT', `/merchants/${m.merchantCode}/allowed-origins`, {
      allowedOrigins: [shopOrigin],
    });
    expect(set.body).toEqual({ merchantCode: m.merchantCode, allowedOrigins: [shopOrigin] });
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
    pageTraffic = [];
    page.on('request', (r) => {
      if (r.frame() === page.mainFrame()) pageTraffic.push(`${r.url()} ${r.postData() ?? ''}`);
    });
    page.on('console', (msg) => pageTraffic.push(msg.text()));
  });
  afterEach(async () => context.close());

  async function clientToken(): Promise<string> {
    return (await stack.http('POST', '/v1/sdk/session', { key: m.key, body: {} })).body.clientToken;
  }

  async function mount(style: unknown = {}, url = shop.url): Promise<void> {
    await page.goto(url);
    await page.evaluate(`window.mount(${JSON.stringify(await clientToken())}, ${JSON.stringify(style)})`);
  }

  async function fill(number: string, cvc = '123'): Promise<void> {
    await fieldInput(page, 'number', 'Card number').fill(number);
    await fieldInput(page, 'expiry', 'Expiry date').fill(`${FUTURE.expiryMonth} / ${YY}`);
    await fieldInput(page, 'cvc', 'Security code').fill(cvc);
    await fieldInput(page, 'name', 'Name on card').fill('Ada Shopper');
  }

  const events = (): Promise<any[]> => page.evaluate('window.events');
  const nonceOnPage = (): Promise<any> => page.evaluate('window.fields.createNonce()');

  /** Nothing the merchant page sent, logged or received holds the card number or the security code. */
  async function expectNoCardOnPage(number: string): Promise<void> {
    const received: string[] = await page.evaluate('window.received');
    const seen = [...pageTraffic, ...received, JSON.stringify(await events())].join('\n');
    expect(seen).not.toContain(number);
    expect(seen).not.toContain(number.slice(0, 4) + ' ' + number.slice(4, 8));
    expect(seen).not.toMatch(/"(cvv|cvc|cardNumber)"\s*:\s*"\d/);
    expect(received.length).toBeGreaterThan(0);
  }

  it('mounts the fields, types a card, gets a nonce and pays; the page never holds the card', async () => {
    await mount();
    await fill(VISA);
    await expect(fieldInput(page, 'number', 'Card number').inputValue()).resolves.toBe('4111 1111 1111 1111');
    await shot(page, '20-card-fields-default');
    const changes = (await events()).filter((e) => e.name === 'change' && e.field === 'cardNumber');
    expect(changes.at(-1)).toEqual({
      name: 'change',
      field: 'cardNumber',
      empty: false,
      complete: true,
      valid: true,
      brand: 'visa',
    });
    expect((await events()).filter((e) => e.name === 'ready').map((e) => e.field)).toHaveLength(4);

    // The frames are the gateway's origin: a script on the merchant page cannot reach into them.
    const reach = await page.evaluate(`(() => {
      const frame = document.querySelector('#number iframe');
      let read;
      try { read = frame.contentWindow.document.querySelector('input').value; } catch (e) { read = e.name; }
      return { doc: frame.contentDocument, read, origin: new URL(frame.src).origin };
    })()`);
    expect(reach).toEqual({ doc: null, read: 'SecurityError', origin: stack.url });

    const nonce = await nonceOnPage();
    expect(nonce).toMatchObject({
      nonce: expect.stringMatching(/^nonce_/),
      card: { brand: 'visa', last4: '1111', expiryMonth: FUTURE.expiryMonth, expiryYear: FUTURE.expiryYear },
    });
    const purchase = await m.purchase({ card: { nonceData: { nonce: nonce.nonce } } });
    expect(purchase.body).toMatchObject({ status: 'captured', card: { cardData: { brand: 'visa' } } });
    await expectNoCardOnPage(VISA);
  });

  it('takes a custom style as data, shows errors in the error colour and drops anything that is not a value', async () => {
    const style = {
      base: { color: '#1b4332', fontFamily: 'Georgia, serif', fontSize: '18px', letterSpacing: '0.5px' },
      placeholder: { color: '#95a99c' },
      invalid: { color: '#c2185b' },
      focus: { color: 'rgb(0, 80, 40)' },
      complete: { fontWeight: 'bold', color: 'red; background: url(https://evil.example/x)' },
    };
    await mount(style);
    const number = fieldInput(page, 'number', 'Card number');
    await number.fill('4111 1111 1111 1112');
    // Sixteen digits that fail the Luhn check cannot become valid: the error shows at once.
    await expect(number.getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(computed(number, 'color')).resolves.toBe('rgb(194, 24, 91)');
    await expect(page.locator('#number').getAttribute('class')).resolves.toContain('payments-field--invalid');
    await expect(page.locator('#field-error').textContent()).resolves.toBe('Your card number is invalid.');
    const expiry = fieldInput(page, 'expiry', 'Expiry date');
    await expiry.fill('01 / 20');
    await expect(expiry.getAttribute('aria-invalid')).resolves.toBe('true');
    await fieldInput(page, 'cvc', 'Security code').fill('12');
    await fieldInput(page, 'cvc', 'Security code').blur();
    await shot(page, '21-card-fields-custom-style-errors');
    await expect(
      page.evaluate('window.fields.createNonce().catch((e) => ({ code: e.code, field: e.field, message: e.message }))'),
    ).resolves.toEqual({
      code: 'VALIDATION_FAILED',
      field: 'cardNumber',
      message: 'Your card number is invalid.',
    });
    await number.fill(VISA);
    await expiry.fill(`${FUTURE.expiryMonth} / ${YY}`);
    await fieldInput(page, 'cvc', 'Security code').fill('123');
    await fieldInput(page, 'name', 'Name on card').fill('Ada Shopper');
    await expect(computed(number, 'fontFamily')).resolves.toBe('Georgia, serif');
    await expect(computed(number, 'fontWeight')).resolves.toBe('700');
    // The complete layer's colour was CSS syntax, not a colour: dropped, so the base colour stays.
    await expect(computed(number, 'color')).resolves.toBe('rgb(27, 67, 50)');
    await expect(number.getAttribute('style')).resolves.not.toContain('url');
    await shot(page, '22-card-fields-custom-style');
  });

  it('detects the brand, groups its digits and asks for its security code length; pasted numbers are cleaned', async () => {
    await mount();
    const number = fieldInput(page, 'number', 'Card number');
    await number.focus();
    await page.keyboard.insertText('3782-822463-10005');
    await expect(number.inputValue()).resolves.toBe('3782 822463 10005');
    const cvc = fieldInput(page, 'cvc', 'Security code');
    await cvc.fill('1234');
    await expect(cvc.inputValue()).resolves.toBe('1234');
    const cvcChange = (await events()).filter((e) => e.name === 'change' && e.field === 'cardCvc').at(-1);
    expect(cvcChange).toMatchObject({ complete: true, valid: true });
    await number.fill(VISA);
    await cvc.fill('1234');
    await expect(cvc.inputValue()).resolves.toBe('123');
    // Autofill writes the expiry as the browser stores it (MM/YYYY).
    const expiry = fieldInput(page, 'expiry', 'Expiry date');
    await expiry.fill(`${FUTURE.expiryMonth}/${FUTURE.expiryYear}`);
    await expect(expiry.inputValue()).resolves.toBe(`${FUTURE.expiryMonth} / ${YY}`);
    await number.fill(AMEX);
    await cvc.fill('1234');
    await fieldInput(page, 'name', 'Name on card').fill('Ada Shopper');
    await expect(nonceOnPage()).resolves.toMatchObject({ card: { brand: 'amex', last4: '0005' } });
  });

  it('can be used with the keyboard alone, in the page’s focus order, with labelled inputs', async () => {
    await mount();
    const order: string[] = [];
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press('Tab');
      order.push(await focusedId(page));
    }
    expect(order).toEqual(['number', 'expiry', 'cvc', 'name', 'pay']);
    for (let i = 0; i < 4; i++) await page.keyboard.press('Shift+Tab');
    expect(await focusedId(page)).toBe('number');
    await page.keyboard.type(VISA);
    await page.keyboard.press('Tab');
    await page.keyboard.type(`${FUTURE.expiryMonth}${YY}`);
    await page.keyboard.press('Tab');
    await page.keyboard.type('123');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Kim Keys');
    await page.keyboard.press('Tab');
    await shot(page, '23-card-fields-keyboard');
    await page.keyboard.press('Enter');
    await page.getByText('Nonce for visa ending 1111').waitFor();
    const focusEvents = (await events()).filter((e) => e.name === 'focus').map((e) => e.field);
    expect(focusEvents.slice(0, 4)).toEqual(['cardNumber', 'cardExpiry', 'cardCvc', 'cardholderName']);
    // The frame and its input carry the names a screen reader announces.
    await expect(page.locator('#expiry iframe').getAttribute('title')).resolves.toBe('Expiry date');
    const input = fieldInput(page, 'expiry', 'Expiry date');
    await expect(input.getAttribute('autocomplete')).resolves.toBe('cc-exp');
    await expect(input.getAttribute('inputmode')).resolves.toBe('numeric');
  });

  it('runs 3DS for a purchase paid with a nonce from the fields', async () => {
    await mount();
    await fill(CHALLENGE);
    const nonce = await nonceOnPage();
    const purchase = await m.purchase({ card: { nonceData: { nonce: nonce.nonce } } });
    expect(purchase.body.status).toBe('pending_3ds');
    await page.evaluate(`window.done = window.sdk.handleAction(${JSON.stringify(purchase.body.actionRequired)}); 1`);
    const challenge = page.frameLocator('iframe[title="Payment verification"]');
    await challenge.getByRole('button', { name: 'Authenticate' }).waitFor();
    await shot(page, '24-card-fields-3ds');
    await challenge.getByRole('button', { name: 'Authenticate' }).click();
    await expect(page.evaluate('window.done')).resolves.toMatchObject({ id: purchase.body.id, status: 'captured' });
    await expectNoCardOnPage(CHALLENGE);
  });

  it('a page on an origin the merchant did not register cannot embed the fields', async () => {
    const other = await merchantSite(shopPage(stack.url));
    try {
      await page.goto(other.url);
      await page.evaluate(`window.mount(${JSON.stringify(await clientToken())}, {}); 1`);
      // Even claiming the registered origin, the frame's frame-ancestors names that origin only.
      const channel = 'ab'.repeat(12);
      const spoofed = `${stack.url}/v1/sdk/fields/frame?field=cardNumber&merchant=${m.merchantCode}&origin=${encodeURIComponent(shopOrigin)}&channel=${channel}`;
      await page.evaluate(
        `(() => { const f = document.createElement('iframe'); f.id = 'spoofed'; f.src = ${JSON.stringify(spoofed)}; document.body.appendChild(f); })()`,
      );
      // The SDK says so when asked for a nonce: the frames never became ready.
      await expect(page.evaluate('window.fields.createNonce().catch((e) => e.code)')).resolves.toBe(
        'FIELDS_NOT_LOADED',
      );
      for (const frame of page.frames().filter((f) => f !== page.mainFrame())) {
        await expect(frame.locator('#input').count()).resolves.toBe(0);
      }
      expect((await events()).filter((e) => e.name === 'ready')).toEqual([]);
      await shot(page, '25-card-fields-unregistered-origin');
    } finally {
      await other.close();
    }
    const refused = await stack.http(
      'GET',
      `/v1/sdk/fields/frame?field=cardNumber&merchant=${m.merchantCode}&origin=${encodeURIComponent('https://evil.example')}&channel=${'cd'.repeat(12)}`,
    );
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'AUTH_INSUFFICIENT_SCOPE', param: 'origin' });
    expect(refused.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const allowed = await stack.http(
      'GET',
      `/v1/sdk/fields/frame?field=cardCvc&merchant=${m.merchantCode}&origin=${encodeURIComponent(shopOrigin)}&channel=${'cd'.repeat(12)}`,
    );
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('content-security-policy')).toContain(`frame-ancestors ${shopOrigin}`);
    expect(allowed.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(allowed.headers.get('x-frame-options')).toBeNull();
  });

  it('the admin API keeps the allowed origins exact', async () => {
    const path = `/merchants/${m.merchantCode}/allowed-origins`;
    for (const bad of ['https://shop.example.com/', 'https://*.example.com', 'http://shop.example.com', 'null']) {
      const r = await stack.admin('PUT', path, { allowedOrigins: [bad] });
      expect(r.status).toBe(400);
      expect(r.body.error).toMatchObject({ code: 'VALIDATION_FAILED' });
    }
    expect((await stack.admin('PUT', '/merchants/nobody/allowed-origins', { allowedOrigins: [] })).status).toBe(404);
    expect((await stack.admin('GET', path)).body).toEqual({
      merchantCode: m.merchantCode,
      allowedOrigins: [shopOrigin],
    });
  });

  it('serves the SDK at a versioned URL whose hash the docs publish, and its declarations', async () => {
    const { path, integrity } = publishedSdk();
    const pinned = await stack.http<string>('GET', path);
    expect(pinned.status).toBe(200);
    expect(pinned.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(`sha384-${createHash('sha384').update(pinned.body).digest('base64')}`).toBe(integrity);
    // The latest SDK is the current release: a change to the SDK's source needs a new version.
    const latest = await stack.http<string>('GET', '/v1/sdk/js');
    expect(latest.body).toBe(pinned.body);
    expect(latest.body).toContain(`version: SDK_VERSION`);
    expect(path).toContain(`/v${/const SDK_VERSION = '([\d.]+)'/.exec(latest.body)![1]}/`);
    const types = await stack.http<string>('GET', '/v1/sdk/sdk.d.ts');
    expect(types.body).toContain('interface Static');
    expect(types.body).toBe(readFileSync(join(__dirname, '../../clients/browser/src/payments-sdk.d.ts'), 'utf8'));
    expect((await stack.http<string>('GET', path.replace('sdk.js', 'sdk.d.ts'))).body).toBe(types.body);
    expect((await stack.http('GET', '/v1/sdk/v0.0.1/sdk.js')).status).toBe(404);
  });
});
