import { expectError, paymentsQuery } from '../payments/payments-fixtures';
import { TestStack } from '../support/stack';
import {
  APPROVED,
  CHALLENGE,
  CHALLENGE_FAILS,
  checkoutToken,
  DECLINED,
  expectPayerAnswer,
  linkEvents,
  LinksClient,
  linksQuery,
  linksMerchant,
  nonceFor,
  pay,
  payWithCard,
} from './link-fixtures';
import { usd } from '../support/amounts';

/** Paying links through the keyless, link-scoped checkout routes: payments over NATS, real Postgres. */
describe('paying a payment link', () => {
  let stack: TestStack;
  let m: LinksClient;

  beforeAll(
    async () =>
      ([stack, m] = await TestStack.startWith(linksMerchant, {
        services: ['payments', 'payment-links'],
        env: { LINK_EXPIRY_SWEEP_MS: '0' },
      })),
  );
  afterAll(() => stack.stop());

  const paymentsOf = (linkId: string) =>
    paymentsQuery<{ id: string; status: string; amount_value: string }>(
      stack,
      `SELECT id, status, amount_value FROM payments WHERE metadata->>'paymentLinkId' = $1`,
      [linkId],
    );

  it('pays a fixed link: the payment is captured, the link used once, usedAt set, events in order', async () => {
    const link = await m.link({ returnUrl: 'https://shop.example.com/thanks' });
    const token = await checkoutToken(stack, link.id);
    const r = await pay(stack, link.id, token, { nonce: await nonceFor(stack, token) });
    expect(r.status).toBe(200);
    expect(r.body.outcome).toBe('succeeded');
    expect(r.body.payment).toMatchObject({ status: 'captured', amount: usd(2500) });
    expect(r.body.returnUrl).toBe('https://shop.example.com/thanks');
    expect(r.body.link).toMatchObject({ status: 'used' });
    // The payer sees the checkout's fields of the link; the merchant sees the rest through its API.
    const merchantView = await expectPayerAnswer(m, r.body);
    expect(merchantView).toMatchObject({ status: 'used', usesCount: 1, usedAt: expect.any(String) });
    expect((await m.m.get(r.body.payment.id)).body).toMatchObject({
      status: 'captured',
      merchantCode: m.m.merchantCode,
      metadata: { paymentLinkId: link.id },
    });
    expect((await linkEvents(stack, link.id)).map((e) => e.type)).toEqual([
      'payment_link.created',
      'payment_link.used',
    ]);

    // Used: paying again is 409 and takes nothing; the page says it is no longer available; cancel is 409.
    expectError(await pay(stack, link.id, token, { nonce: await nonceFor(stack, token) }), 409, 'INVALID_STATE');
    expect((await stack.http('GET', `/checkout/${link.id}`)).status).toBe(410);
    expect(await paymentsOf(link.id)).toHaveLength(1);
    expectError(await m.cancel(link.id), 409, 'INVALID_STATE');
  });

  it('a production link pays too (the use id is the Idempotency-Key production purchases need)', async () => {
    const production = await stack.key([m.m.merchantCode], 'private', 'production');
    await stack.productionSimulator(m.m.merchantCode);
    const created = await stack.http('POST', '/v1/payment-link', {
      key: production.key,
      body: { amount: usd(990), title: 'Live' },
    });
    expect(created.body.environment).toBe('production');
    const r = await payWithCard(stack, created.body.id);
    expect(r.body.outcome).toBe('succeeded');
    expect(r.body.link).toMatchObject({ status: 'used', environment: 'production' });
    expect(r.body.link.usesCount).toBeUndefined();
    expectError(await m.get(created.body.id), 404, 'NOT_FOUND');
  });

  it('a declined card leaves the link active; a second try with another card pays it', async () => {
    const link = await m.link();
    const token = await checkoutToken(stack, link.id);
    const declined = await pay(stack, link.id, token, { nonce: await nonceFor(stack, token, DECLINED) });
    expect(declined.status).toBe(200);
    expect(declined.body.outcome).toBe('declined');
    expect(declined.body.message).toBe('Your card was declined. Try again or use another card.');
    // Why the card was refused is the merchant's to read, never the anonymous payer's.
    expect(declined.body.payment.refusalCode).toBeUndefined();
    expect((await m.m.get(declined.body.payment.id)).body.refusalCode).toMatchObject({ reasonCode: '5' });
    expect(declined.body.link).toMatchObject({ status: 'active' });
    expect(await expectPayerAnswer(m, declined.body)).toMatchObject({ status: 'active', usesCount: 0 });
    const ok = await pay(stack, link.id, token, { nonce: await nonceFor(stack, token, APPROVED) });
    expect(ok.body.outcome).toBe('succeeded');
    expect(ok.body.link).toMatchObject({ status: 'used' });
    expect((await m.get(link.id)).body).toMatchObject({ status: 'used', usesCount: 1 });
    expect((await paymentsOf(link.id)).map((p) => p.status).sort()).toEqual(['captured', 'declined']);
  });

  it('customer_entered: the amount within bounds, in the link currency and exponent', async () => {
    const link = await m.link({ amountMode: 'customer_entered', amount: usd(), amountMin: 500, amountMax: 10000 });
    const token = await checkoutToken(stack, link.id);
    const attempt = async (body: Record<string, unknown>) =>
      pay(stack, link.id, token, { nonce: await nonceFor(stack, token), ...body });
    expectError(await attempt({}), 400, 'VALIDATION_FAILED', 'amount');
    expectError(await attempt({ amount: usd(499) }), 400, 'VALIDATION_FAILED', 'amount.value');
    expectError(await attempt({ amount: usd(10001) }), 400, 'VALIDATION_FAILED', 'amount.value');
    expectError(await attempt({ amount: { currency: 'EUR', value: 1000, exponent: 2 } }), 422, 'CURRENCY_MISMATCH');
    expectError(await attempt({ amount: { currency: 'USD', value: 1000, exponent: 3 } }), 422, 'INVALID_EXPONENT');
    expect(await paymentsOf(link.id)).toHaveLength(0);
    const ok = await attempt({ amount: usd(1234) });
    expect(ok.body.outcome).toBe('succeeded');
    expect(ok.body.payment.amount).toEqual(usd(1234));
  });

  it('a fixed link refuses another amount', async () => {
    const link = await m.link();
    expectError(
      await payWithCard(stack, link.id, APPROVED, { amount: usd(1) }),
      400,
      'VALIDATION_FAILED',
      'amount.value',
    );
    expect((await payWithCard(stack, link.id, APPROVED, { amount: usd(2500) })).body.outcome).toBe('succeeded');
  });

  it('a replayed nonce is 404 and pays nothing; the place it reserved is freed', async () => {
    const link = await m.link({ reusable: true, maxUses: 2 });
    const token = await checkoutToken(stack, link.id);
    const nonce = await nonceFor(stack, token);
    expect((await pay(stack, link.id, token, { nonce })).body.outcome).toBe('succeeded');
    expectError(await pay(stack, link.id, token, { nonce }), 404, 'NOT_FOUND');
    expect(await paymentsOf(link.id)).toHaveLength(1);
    expectError(await pay(stack, link.id, token, { nonce: 'nonce_made_up' }), 404, 'NOT_FOUND');
    const second = await pay(stack, link.id, token, { nonce: await nonceFor(stack, token) });
    expect(second.body.link).toMatchObject({ status: 'used' });
    expect((await m.get(link.id)).body).toMatchObject({ status: 'used', usesCount: 2 });
  });

  it('takes only the client token of this very link: another link’s or a merchant token is 403', async () => {
    const link = await m.link();
    const other = await m.link();
    const otherToken = await checkoutToken(stack, other.id);
    const nonce = await nonceFor(stack, otherToken);
    expectError(await pay(stack, link.id, otherToken, { nonce }), 403, 'AUTH_INSUFFICIENT_SCOPE');
    const session = await stack.http('POST', '/v1/sdk/session', { key: m.key, body: {} });
    expectError(await pay(stack, link.id, session.body.clientToken, { nonce }), 403, 'AUTH_INSUFFICIENT_SCOPE');
    expectError(await stack.http('POST', `/v1/checkout/${link.id}/pay`, { body: { nonce } }), 401, 'AUTH_MISSING');
    expectError(await pay(stack, link.id, m.key, { nonce }), 403, 'AUTH_INSUFFICIENT_SCOPE');
    expect(await paymentsOf(link.id)).toHaveLength(0);
    // The link token is no private key either.
    expectError(
      await stack.http('GET', `/v1/payment-link/${link.id}`, { key: otherToken }),
      403,
      'AUTH_INSUFFICIENT_SCOPE',
    );
  });

  it('a tampered link id is 404 (page and pay route)', async () => {
    const link = await m.link();
    const tampered = link.id.replace(/^./, (c: string) => (c === 'a' ? 'b' : 'a'));
    expect((await stack.http<string>('GET', `/checkout/${tampered}`)).status).toBe(404);
    expect((await stack.http<string>('GET', '/checkout/not-a-link')).body).toContain('not found');
    const token = await checkoutToken(stack, link.id);
    expectError(await pay(stack, tampered, token, { nonce: 'x' }), 403, 'AUTH_INSUFFICIENT_SCOPE');
  });

  it('an expired or cancelled link answers 409 INVALID_STATE and takes nothing', async () => {
    const expiring = await m.link({ expiresAt: new Date(Date.now() + 1500).toISOString() });
    const token = await checkoutToken(stack, expiring.id);
    const nonce = await nonceFor(stack, token);
    await new Promise((r) => setTimeout(r, 1700));
    expectError(await pay(stack, expiring.id, token, { nonce }), 409, 'INVALID_STATE');
    expect((await m.get(expiring.id)).body.status).toBe('expired');
    const cancelled = await m.link();
    const cancelledToken = await checkoutToken(stack, cancelled.id);
    await m.cancel(cancelled.id);
    expectError(
      await pay(stack, cancelled.id, cancelledToken, { nonce: await nonceFor(stack, cancelledToken) }),
      409,
      'INVALID_STATE',
    );
    expect([...(await paymentsOf(expiring.id)), ...(await paymentsOf(cancelled.id))]).toHaveLength(0);
  });

  it('3DS: the payer completes the challenge, the link route resumes and the link learns the outcome', async () => {
    const link = await m.link();
    const token = await checkoutToken(stack, link.id);
    const r = await pay(stack, link.id, token, { nonce: await nonceFor(stack, token, CHALLENGE) });
    expect(r.body.outcome).toBe('requires_action');
    expect(r.body.link).toMatchObject({ status: 'active' });
    expect(await expectPayerAnswer(m, r.body)).toMatchObject({ status: 'active', usesCount: 0 });
    const { sessionId } = r.body.payment.actionRequired;
    // While the challenge is open the place is held: a second payer of this single-use link is refused.
    expectError(await payWithCard(stack, link.id), 409, 'INVALID_STATE');
    expectError(
      await stack.http('POST', `/v1/checkout/${link.id}/resume`, { key: token, body: { sessionId } }),
      409,
      'CHALLENGE_NOT_COMPLETED',
    );
    const done = await stack.http('POST', `/v1/3ds/challenge/${sessionId}`, { body: { outcome: 'authenticated' } });
    expect(done.status).toBe(200);
    // The keyless resume refuses a link's session without touching it: only the link's checkout finishes it.
    const keyless = await stack.http('POST', '/v1/payment/resume', { body: { sessionId } });
    expectError(keyless, 409, 'INVALID_STATE');
    expect(keyless.body.error.message).toMatch(/payment link/);
    expect(JSON.stringify(keyless.body)).not.toMatch(/refusalCode|reference|metadata|orderCode|captured/);
    const resumed = await stack.http('POST', `/v1/checkout/${link.id}/resume`, { key: token, body: { sessionId } });
    expect(resumed.status).toBe(200);
    expect(resumed.body.outcome).toBe('succeeded');
    expect(resumed.body.payment.status).toBe('captured');
    expect(resumed.body.link).toMatchObject({ status: 'used' });
    expect(await expectPayerAnswer(m, resumed.body)).toMatchObject({ status: 'used', usesCount: 1 });
    // Another link's session is not this link's to resume.
    const other = await m.link();
    const otherToken = await checkoutToken(stack, other.id);
    expectError(
      await stack.http('POST', `/v1/checkout/${other.id}/resume`, { key: otherToken, body: { sessionId } }),
      404,
      'NOT_FOUND',
    );
  });

  it('3DS that fails: the payment is declined and the link stays active', async () => {
    const link = await m.link();
    const token = await checkoutToken(stack, link.id);
    const r = await pay(stack, link.id, token, { nonce: await nonceFor(stack, token, CHALLENGE_FAILS) });
    const { sessionId } = r.body.payment.actionRequired;
    await stack.http('POST', `/v1/3ds/challenge/${sessionId}`, { body: { outcome: 'failed' } });
    const resumed = await stack.http('POST', `/v1/checkout/${link.id}/resume`, { key: token, body: { sessionId } });
    expect(resumed.body.outcome).toBe('declined');
    expect(resumed.body.link).toMatchObject({ status: 'active' });
    expect(await expectPayerAnswer(m, resumed.body)).toMatchObject({ status: 'active', usesCount: 0 });
    expect((await payWithCard(stack, link.id)).body.outcome).toBe('succeeded');
  });

  it('a lapsed reservation is settled from payments: a 3DS payment whose answer the link lost still counts', async () => {
    const { LinkUseReconcileLoop } = await import('../../apps/payment-links/src/checkout/link-use-reconcile.loop');
    const { PaymentsClient } = await import('../../apps/payment-links/src/checkout/payments.client');
    const links = stack.services.get('payment-links')![0];
    const reconciler = links.get(LinkUseReconcileLoop);
    const lapse = (linkId: string) =>
      linksQuery(
        stack,
        `UPDATE payment_link_uses SET reserved_until = now() - interval '1 second' WHERE link_id = $1`,
        [linkId],
      );
    const resumeElsewhere = async (linkId: string, card: string, outcome: string) => {
      const token = await checkoutToken(stack, linkId);
      const r = await pay(stack, linkId, token, { nonce: await nonceFor(stack, token, card) });
      const { sessionId } = r.body.payment.actionRequired;
      await stack.http('POST', `/v1/3ds/challenge/${sessionId}`, { body: { outcome } });
      // Payments resumes it for payment-links, whose answer is then lost: the link does not hear about it.
      return links.get(PaymentsClient).resume('lost-answer', sessionId);
    };

    const paid = await m.link();
    expect((await resumeElsewhere(paid.id, CHALLENGE, 'authenticated')).status).toBe('captured');
    expect((await m.get(paid.id)).body).toMatchObject({ status: 'active', usesCount: 0 });
    const failed = await m.link();
    expect((await resumeElsewhere(failed.id, CHALLENGE_FAILS, 'failed')).status).toBe('declined');
    await lapse(paid.id);
    await lapse(failed.id);
    expect(await reconciler.runOnce()).toBeGreaterThanOrEqual(2);
    expect((await m.get(paid.id)).body).toMatchObject({ status: 'used', usesCount: 1 });
    expect((await m.get(failed.id)).body).toMatchObject({ status: 'active', usesCount: 0 });
    const uses = await linksQuery<{ status: string }>(
      stack,
      'SELECT status FROM payment_link_uses WHERE link_id = ANY($1) ORDER BY link_id',
      [[paid.id, failed.id]],
    );
    expect(uses.map((u) => u.status).sort()).toEqual(['confirmed', 'released']);
    // Settled once: another pass finds nothing of these to do.
    await reconciler.runOnce();
    expect((await m.get(paid.id)).body.usesCount).toBe(1);
  });

  it('twenty concurrent payers on a reusable link with maxUses 5: exactly five payments, the rest 409', async () => {
    const link = await m.link({ reusable: true, maxUses: 5 });
    const token = await checkoutToken(stack, link.id);
    const nonces = await Promise.all(Array.from({ length: 20 }, () => nonceFor(stack, token)));
    const results = await Promise.all(nonces.map((nonce) => pay(stack, link.id, token, { nonce })));
    const ok = results.filter((r) => r.status === 200);
    expect(ok.map((r) => r.body.outcome)).toEqual(Array(5).fill('succeeded'));
    for (const r of results.filter((x) => x.status !== 200)) expectError(r, 409, 'INVALID_STATE');
    const payments = await paymentsOf(link.id);
    expect(payments).toHaveLength(5);
    expect(payments.every((p) => p.status === 'captured')).toBe(true);
    const after = (await m.get(link.id)).body;
    expect(after).toMatchObject({ status: 'used', usesCount: 5, maxUses: 5 });
    expect(after.usedAt).toEqual(expect.any(String));
    const used = (await linkEvents(stack, link.id)).filter((e) => e.type === 'payment_link.used');
    // One event per payment, each with its own count (commit order may differ from the outbox's timestamps).
    expect(used.map((e) => e.data.usesCount).sort()).toEqual([1, 2, 3, 4, 5]);
  });

  it('serves the checkout page with a strict CSP, every asset from the gateway, and the cacheable SDK', async () => {
    const link = await m.link({ title: 'Concert <ticket>', description: 'Row "A"' });
    const page = await stack.http<string>('GET', `/checkout/${link.id}`);
    expect(page.status).toBe(200);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.body).toContain('Concert &lt;ticket&gt;');
    expect(page.body).toContain('$25.00');
    expect(page.body).not.toMatch(/<script(?![^>]*\bsrc=)/);
    expect(page.body).not.toMatch(/\sstyle=/);
    const sources = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((x) => x[1]);
    expect(sources.filter((s) => !s.startsWith('/'))).toEqual(['data:,']); // the empty favicon
    const sdk = await stack.http<string>('GET', '/v1/sdk/js');
    expect(sdk.status).toBe(200);
    expect(sdk.headers.get('content-type')).toContain('javascript');
    expect(sdk.headers.get('cache-control')).toContain('public');
    expect(sdk.body).toContain('PaymentsSDK');
    // The SDK's routes answer any origin (bearer credentials, no cookies); server routes stay same-origin.
    const preflight = await stack.http('OPTIONS', '/v1/sdk/nonce', {
      headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('authorization');
    const server = await stack.http('POST', '/v1/payment/purchase', { headers: { origin: 'https://shop.example' } });
    expect(server.headers.get('access-control-allow-origin')).toBeNull();
    for (const asset of ['/checkout/assets/checkout.js', '/checkout/assets/checkout.css']) {
      expect((await stack.http('GET', asset)).status).toBe(200);
    }
  });
});
