import { cardData, expectError, FUTURE, paymentsQuery } from '../payments/payments-fixtures';
import { HttpResult, TestStack } from '../support/stack';
import { launchBrowser, shot, watchProblems } from './browser';
import { queryRows } from '../support/db';
import { freePort } from '../support/ports';
import { APPROVED, CHALLENGE, CHALLENGE_FAILS, DECLINED, LinksClient, linksMerchant } from './link-fixtures';

const PER_ADDRESS = 3;
const PER_LINK = 5;

/**
 * The card-testing defence of the public checkout, on the real stack. Each client is a loopback address of
 * its own (127.0.0.x): the gateway counts declines per socket address and per link.
 */
describe('card testing on the payment-link checkout', () => {
  let stack: TestStack;
  let m: LinksClient;

  beforeAll(async () => {
    // The checkout's card fields load only in a page of the gateway's public origin: serve it there.
    const port = await freePort();
    stack = await TestStack.start({
      services: ['payments', 'payment-links'],
      env: {
        PORT: String(port),
        PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
        CHECKOUT_DECLINES_PER_ADDRESS: String(PER_ADDRESS),
        CHECKOUT_DECLINES_PER_LINK: String(PER_LINK),
        CHECKOUT_DECLINE_WINDOW_SECONDS: '600',
        LINK_EXPIRY_SWEEP_MS: '0',
      },
    });
    m = await linksMerchant(stack);
  });
  afterAll(() => stack.stop());

  /** One visitor of a link's checkout: loads the page, makes a nonce for a card and pays, from `from`. */
  function visitor(linkId: string, from: string, headers: Record<string, string> = {}) {
    let token: string | undefined;
    const load = async () => {
      const page = await stack.http<string>('GET', `/checkout/${linkId}`, { from, headers });
      token = /data-client-token="([^"]+)"/.exec(page.body)![1];
      return token;
    };
    return {
      async nonce(card: string): Promise<HttpResult> {
        return stack.http('POST', '/v1/sdk/nonce', {
          key: token ?? (await load()),
          body: cardData(card),
          from,
          headers,
        });
      },
      /** Nonce and pay: the pay answer, or the nonce's refusal when the nonce was refused. */
      async attempt(card: string): Promise<HttpResult> {
        const nonce = await this.nonce(card);
        if (nonce.status !== 201) return nonce;
        return this.pay(nonce.body.nonce);
      },
      pay(nonce: string): Promise<HttpResult> {
        return stack.http('POST', `/v1/checkout/${linkId}/pay`, { key: token, body: { nonce }, from, headers });
      },
      resume(sessionId: string): Promise<HttpResult> {
        return stack.http('POST', `/v1/checkout/${linkId}/resume`, { key: token, body: { sessionId }, from, headers });
      },
    };
  }

  const expectBlocked = (r: HttpResult, longest = 600) => {
    expectError(r, 429, 'RATE_LIMITED');
    expect(r.body.error.message).toMatch(/Too many declined payments/);
    const retryAfter = Number(r.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(longest);
    expect(r.headers.get('ratelimit-remaining')).toBe('0');
    expect(Number(r.headers.get('ratelimit-limit'))).toBeGreaterThan(0);
    expect(r.headers.get('ratelimit-reset')).toBe(String(retryAfter));
  };

  const gatewayEvents = (linkId: string) =>
    queryRows<{ type: string; envelope: any }>(
      stack.env.GATEWAY_DATABASE_URL,
      `SELECT type, envelope FROM outbox WHERE envelope->'data'->>'id' = $1 ORDER BY created_at`,
      [linkId],
    );

  const paymentsOn = (linkId: string) =>
    paymentsQuery(stack, `SELECT status FROM payments WHERE metadata->>'paymentLinkId' = $1`, [linkId]);

  it('a scripted run of test cards from one address is stopped after the configured number of declines', async () => {
    const link = await m.link();
    const target = await m.link();
    const tester = visitor(target.id, '127.0.0.2');
    const answers: HttpResult[] = [];
    for (let i = 0; i < 12; i++) answers.push(await tester.attempt(DECLINED));
    const declined = answers.filter((r) => r.status === 200);
    expect(declined).toHaveLength(PER_ADDRESS);
    for (const r of declined) {
      expect(r.body).toMatchObject({ outcome: 'declined', message: expect.any(String) });
      expect(JSON.stringify(r.body)).not.toMatch(/refusalCode|reasonCode/);
    }
    for (const r of answers.slice(PER_ADDRESS)) expectBlocked(r);
    expect(await paymentsOn(target.id)).toHaveLength(PER_ADDRESS);

    // Blocked everywhere from that address: a good card, another link, a fresh page load all wait.
    expectBlocked(await tester.attempt(APPROVED));
    expectBlocked(await visitor(link.id, '127.0.0.2').nonce(APPROVED));

    // The merchant hears of it once, as the link after the change with the block's details.
    const events = await gatewayEvents(target.id);
    expect(events.map((e) => e.type)).toEqual(['payment_link.attempts_blocked']);
    expect(events[0].envelope).toMatchObject({
      merchantCode: m.m.merchantCode,
      data: {
        id: target.id,
        status: 'active',
        block: { scope: 'address', declines: PER_ADDRESS, windowSeconds: 600, retryAfterSeconds: expect.any(Number) },
      },
    });
    const metrics = await (await fetch(`${stack.adminUrl}/metrics`)).text();
    const blocked = /checkout_attempts_blocked_total\{[^}]*scope="address"[^}]*\} (\d+)/.exec(metrics);
    expect(Number(blocked?.[1])).toBeGreaterThanOrEqual(12 - PER_ADDRESS + 2);
  });

  it('declines from many addresses close the link itself, for every address, after the link limit', async () => {
    const target = await m.link({ reusable: true });
    const results: HttpResult[] = [];
    for (let i = 0; i < PER_LINK + 3; i++) results.push(await visitor(target.id, `127.0.1.${i + 1}`).attempt(DECLINED));
    expect(results.filter((r) => r.status === 200)).toHaveLength(PER_LINK);
    for (const r of results.slice(PER_LINK)) expectBlocked(r);
    // A newcomer with a good card is refused too while the link is closed; the nonce step already says so.
    expectBlocked(await visitor(target.id, '127.0.1.200').nonce(APPROVED));
    const events = await gatewayEvents(target.id);
    expect(events.map((e) => e.envelope.data.block.scope)).toEqual(['link']);
  });

  it('an honest payer on another link and address who mistypes twice and then pays is never blocked', async () => {
    const tester = visitor((await m.link()).id, '127.0.0.3');
    for (let i = 0; i < PER_ADDRESS + 2; i++) await tester.attempt(DECLINED);
    expectBlocked(await tester.attempt(DECLINED));

    const link = await m.link();
    const payer = visitor(link.id, '127.0.0.4');
    for (let i = 0; i < PER_ADDRESS - 1; i++) expect((await payer.attempt(DECLINED)).body.outcome).toBe('declined');
    const paid = await payer.attempt(APPROVED);
    expect(paid.status).toBe(200);
    expect(paid.body.outcome).toBe('succeeded');
    expect((await m.get(link.id)).body).toMatchObject({ status: 'used', usesCount: 1 });
  });

  /** `count` nonces of `card` made one after another (no decline counts yet), then paid all at once. */
  async function burst(v: ReturnType<typeof visitor>, count: number, card = DECLINED): Promise<HttpResult[]> {
    const nonces: string[] = [];
    for (let i = 0; i < count; i++) nonces.push((await v.nonce(card)).body.nonce);
    return Promise.all(nonces.map((n) => v.pay(n)));
  }

  it('28 parallel declining attempts from one address get the limit and no more; another address pays', async () => {
    const target = await m.link({ reusable: true });
    const answers = await burst(visitor(target.id, '127.0.2.1'), 28);
    const ran = answers.filter((r) => r.status === 200);
    expect(ran).toHaveLength(PER_ADDRESS);
    for (const r of ran) expect(r.body.outcome).toBe('declined');
    for (const r of answers.filter((a) => a.status !== 200)) expectBlocked(r);
    expect(await paymentsOn(target.id)).toHaveLength(PER_ADDRESS);
    expect((await gatewayEvents(target.id)).map((e) => e.envelope.data.block.scope)).toEqual(['address']);
    // The same link from another address: its declines count against the link, not this payer's address.
    expect((await visitor(target.id, '127.0.2.2').attempt(APPROVED)).body.outcome).toBe('succeeded');
  });

  it('parallel declining attempts from many addresses on one link get the link limit and no more', async () => {
    const target = await m.link({ reusable: true });
    const visitors = Array.from({ length: 12 }, (_, i) => visitor(target.id, `127.0.3.${i + 1}`));
    const nonces = await Promise.all(visitors.map(async (v) => (await v.nonce(DECLINED)).body.nonce as string));
    const answers = await Promise.all(visitors.map((v, i) => v.pay(nonces[i])));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(PER_LINK);
    for (const r of answers.filter((a) => a.status !== 200)) expectBlocked(r);
    expect(await paymentsOn(target.id)).toHaveLength(PER_LINK);
  });

  it('failed 3DS challenges count as declines; the keyless resume refuses a link’s session', async () => {
    const target = await m.link({ reusable: true, reference: 'order-77', metadata: { campaign: 'x' } });
    const tester = visitor(target.id, '127.0.4.1');
    for (let i = 0; i < PER_ADDRESS; i++) {
      const r = await tester.attempt(CHALLENGE_FAILS);
      expect(r.body.outcome).toBe('requires_action');
      const { sessionId } = r.body.payment.actionRequired;
      await stack.http('POST', `/v1/3ds/challenge/${sessionId}`, { body: { outcome: 'failed' }, from: '127.0.4.1' });
      // The way around the checkout's count: refused, with nothing of the merchant's view.
      const keyless = await stack.http('POST', '/v1/payment/resume', { body: { sessionId }, from: '127.0.4.1' });
      expectError(keyless, 409, 'INVALID_STATE');
      expect(JSON.stringify(keyless.body)).not.toMatch(/refusalCode|reference|metadata|orderCode|order-77|Q1/);
      const resumed = await tester.resume(sessionId);
      expect(resumed.body.outcome).toBe('declined');
      expect(JSON.stringify(resumed.body)).not.toMatch(/refusalCode|reference|metadata|orderCode|order-77|Q1/);
    }
    expectBlocked(await tester.attempt(CHALLENGE_FAILS));
    expect((await gatewayEvents(target.id)).map((e) => e.envelope.data.block.scope)).toEqual(['address']);
  });

  it('open 3DS challenges hold their places; once their sessions end unfinished they count as declines', async () => {
    const target = await m.link({ reusable: true });
    const tester = visitor(target.id, '127.0.5.1');
    // In parallel too: every challenge issued holds a place until the checkout's resume settles it.
    const answers = await burst(tester, PER_ADDRESS + 4, CHALLENGE);
    expect(answers.filter((r) => r.body.outcome === 'requires_action')).toHaveLength(PER_ADDRESS);
    const fifteenMinutes = 15 * 60;
    for (const r of answers.filter((a) => a.status !== 200)) expectBlocked(r, fifteenMinutes + 600);
    expectBlocked(await tester.attempt(APPROVED), fifteenMinutes + 600);
    expect((await visitor(target.id, '127.0.5.2').attempt(APPROVED)).body.outcome).toBe('succeeded');

    // The sessions end unfinished (the gateway's clock passes their end): the abandoned challenges are declines.
    const age = (seconds: number) =>
      queryRows(
        stack.env.GATEWAY_DATABASE_URL,
        `UPDATE checkout_attempts SET challenge_ends_at = challenge_ends_at - make_interval(secs => $2),
           counts_until = counts_until - make_interval(secs => $2) WHERE address = $1`,
        ['127.0.5.1', seconds],
      );
    await age(fifteenMinutes + 1);
    expectBlocked(await tester.attempt(APPROVED));
    // And like any decline they stop counting once the window has passed.
    await age(600);
    expect((await tester.attempt(APPROVED)).body.outcome).toBe('succeeded');
  });

  it('a forged X-Forwarded-For from an untrusted hop changes nothing', async () => {
    const target = await m.link({ reusable: true });
    const tester = visitor(target.id, '127.0.0.5', { 'x-forwarded-for': '198.51.100.7' });
    for (let i = 0; i < PER_ADDRESS; i++) expect((await tester.attempt(DECLINED)).status).toBe(200);
    // Another forged address on every request: still the same socket address, still blocked.
    for (const forged of ['198.51.100.8', '203.0.113.1, 198.51.100.9']) {
      expectBlocked(await visitor(target.id, '127.0.0.5', { 'x-forwarded-for': forged }).attempt(DECLINED));
    }
    // And naming the blocked address from a clean one does not block the clean one.
    const other = await m.link();
    const clean = visitor(other.id, '127.0.0.6', { 'x-forwarded-for': '127.0.0.5' });
    expect((await clean.attempt(APPROVED)).body.outcome).toBe('succeeded');
  });

  it('behind a trusted proxy (TRUSTED_PROXIES), the address it forwards is the client', async () => {
    const replica = await stack.startGateway({ TRUSTED_PROXIES: '127.0.0.7', PORT: '0' });
    try {
      const target = await m.link({ reusable: true });
      const viaProxy = (client: string) => visitor(target.id, '127.0.0.7', { 'x-forwarded-for': client });
      for (let i = 0; i < PER_ADDRESS; i++) expect((await viaProxy('203.0.113.20').attempt(DECLINED)).status).toBe(200);
      expectBlocked(await viaProxy('203.0.113.20').attempt(DECLINED));
      // Another client behind the same proxy is not that one.
      expect((await viaProxy('203.0.113.21').attempt(APPROVED)).body.outcome).toBe('succeeded');
    } finally {
      await stack.stopGateway(replica);
    }
  });

  it('the checkout page shows the block as a clear message (headless Chromium)', async () => {
    const link = await m.link({ title: 'Gift card', reusable: true });
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage({ viewport: { width: 1024, height: 860 } });
      const problems = watchProblems(page);
      await page.goto(`${stack.url}/checkout/${link.id}`);
      await page.getByLabel('Name on card').fill('Card Tester');
      // The card inputs are the SDK's card fields, each in its own frame served by the gateway.
      const cardInput = (label: string) => page.frameLocator(`iframe[title="${label}"]`).getByLabel(label);
      await cardInput('Card number').fill(DECLINED);
      await cardInput('Expiry date').fill(`${FUTURE.expiryMonth} / ${FUTURE.expiryYear.slice(2)}`);
      await cardInput('Security code').fill('123');
      const alert = page.getByRole('alert');
      for (let i = 0; i < PER_ADDRESS; i++) {
        await page.getByRole('button', { name: 'Pay $25.00' }).click();
        await alert.getByText('Your card was declined. Try again or use another card.').waitFor();
        await page.getByRole('button', { name: 'Pay $25.00' }).waitFor();
        await page.evaluate('document.getElementById("form-error").hidden = true');
      }
      await page.getByRole('button', { name: 'Pay $25.00' }).click();
      await alert.getByText('Too many declined payments').waitFor();
      await expect(alert.textContent()).resolves.toMatch(
        /^Too many declined payments from your device\. For your security, new attempts are paused: try again in \d+ minutes?\.$/,
      );
      await shot(page, '30-card-testing-blocked');
      // The only failed request is the refused nonce; no script error, no CSP violation.
      expect(problems).toEqual([expect.stringMatching(/^429 .*\/v1\/sdk\/nonce$/)]);
    } finally {
      await browser.close();
    }
  });
});
