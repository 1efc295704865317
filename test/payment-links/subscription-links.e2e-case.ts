import { expectError } from '../payments/payments-fixtures';
import { TestStack } from '../support/stack';
import {
  checkoutToken,
  DECLINED,
  expectPayerAnswer,
  linkEvents,
  LinksClient,
  linksMerchant,
  linksStack,
  nonceFor,
  pay,
} from './link-fixtures';

/** Subscription links: billing is asked for the plan over NATS, and paying enrolls the payer (CIT mode). */
describe('subscription links', () => {
  let stack: TestStack;
  let m: LinksClient;

  beforeAll(async () => ([stack, m] = await linksStack()));
  afterAll(() => stack.stop());

  async function plan(owner: LinksClient, o: Record<string, unknown> = {}): Promise<any> {
    const r = await stack.http('POST', '/v1/subscription/plan', {
      key: owner.key,
      body: { name: 'Pro monthly', interval: 'month', amount: 1999, currency: 'USD', ...o },
    });
    if (r.status !== 201) throw new Error(`plan: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  }

  it('creates a link for an active plan of the merchant: no amount, the plan shown on the checkout', async () => {
    const p = await plan(m, { trialPeriodDays: 14 });
    const r = await m.create({ type: 'subscription', subscriptionPlanId: p.id, title: 'Join Pro' });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      type: 'subscription',
      subscriptionPlanId: p.id,
      amountMode: 'fixed',
      status: 'active',
    });
    expect(r.body.amount).toBeUndefined();
    const page = await stack.http<string>('GET', `/checkout/${r.body.id}`);
    expect(page.body).toContain('$19.99 <small>per month</small>');
    expect(page.body).toContain('14-day free trial');
    expect(page.body).toContain('<label for="email">Email</label>');
  });

  it('refuses an unknown, foreign, inactive or archived plan, and an amount on a subscription link', async () => {
    expectError(
      await m.create({ type: 'subscription', subscriptionPlanId: 999999 }),
      404,
      'NOT_FOUND',
      'subscriptionPlanId',
    );
    const other = await linksMerchant(stack);
    const foreign = await plan(other);
    expectError(
      await m.create({ type: 'subscription', subscriptionPlanId: foreign.id }),
      404,
      'NOT_FOUND',
      'subscriptionPlanId',
    );
    const inactive = await plan(m, { isActive: false });
    expectError(
      await m.create({ type: 'subscription', subscriptionPlanId: inactive.id }),
      409,
      'INVALID_STATE',
      'subscriptionPlanId',
    );
    const archived = await plan(m);
    expect((await stack.http('DELETE', `/v1/subscription/plan/${archived.id}`, { key: m.key })).status).toBe(200);
    expectError(
      await m.create({ type: 'subscription', subscriptionPlanId: archived.id }),
      409,
      'INVALID_STATE',
      'subscriptionPlanId',
    );
    const p = await plan(m);
    expectError(
      await m.create({
        type: 'subscription',
        subscriptionPlanId: p.id,
        amount: { currency: 'USD', value: 1, exponent: 2 },
      }),
      400,
      'VALIDATION_FAILED',
      'amount',
    );
  });

  it('paying enrolls the payer through billing: the subscription exists, the link is used', async () => {
    const p = await plan(m);
    const link = await m.link({ type: 'subscription', subscriptionPlanId: p.id, amount: undefined });
    const token = await checkoutToken(stack, link.id);
    expectError(
      await pay(stack, link.id, token, { nonce: await nonceFor(stack, token) }),
      400,
      'VALIDATION_FAILED',
      'customerEmail',
    );
    const r = await pay(stack, link.id, token, {
      nonce: await nonceFor(stack, token),
      customerEmail: 'ada@example.com',
      customerName: 'Ada L',
    });
    expect(r.status).toBe(200);
    expect(r.body.outcome).toBe('succeeded');
    expect(r.body.link).toMatchObject({ status: 'used' });
    expect(await expectPayerAnswer(m, r.body)).toMatchObject({ status: 'used', usesCount: 1 });
    const sub = await stack.http('GET', `/v1/subscription/${r.body.subscription.id}?merchantCode=${m.m.merchantCode}`, {
      key: m.key,
    });
    expect(sub.status).toBe(200);
    expect(sub.body).toMatchObject({ planId: p.id, customerEmail: 'ada@example.com', status: 'active' });
    expect(sub.body.metadata).toEqual({ paymentLinkId: link.id });
    expect((await linkEvents(stack, link.id)).map((e) => e.type)).toEqual([
      'payment_link.created',
      'payment_link.used',
    ]);
  });

  it('a declined card is 402 PAYMENT_DECLINED: no subscription, the link stays active', async () => {
    const p = await plan(m);
    const link = await m.link({
      type: 'subscription',
      subscriptionPlanId: p.id,
      amount: undefined,
      customerEmail: 'bo@example.com',
    });
    const token = await checkoutToken(stack, link.id);
    const r = await pay(stack, link.id, token, { nonce: await nonceFor(stack, token, DECLINED) });
    expectError(r, 402, 'PAYMENT_DECLINED');
    // The anonymous payer learns it was declined, not why: no refusal code, no payment id, no reason.
    expect(r.body.error.message).toBe('Your card was declined. Try again or use another card.');
    expect(r.body.error.refusalCode).toBeUndefined();
    expect(r.body.error.paymentId).toBeUndefined();
    expect((await m.get(link.id)).body).toMatchObject({ status: 'active', usesCount: 0 });
    const subs = await stack.http('GET', `/v1/subscription?planId=${p.id}`, { key: m.key });
    expect(subs.body).toEqual([]);
    // The link's own customerEmail serves when the payer sends none.
    const ok = await pay(stack, link.id, token, { nonce: await nonceFor(stack, token) });
    expect(ok.body.outcome).toBe('succeeded');
  });
});
