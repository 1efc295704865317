import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { uuidv7 } from '@app/clock';
import { NatsClient } from '@app/messaging';
import { EventEnvelope, EVENTS_STREAM } from '@app/contracts';
import { DurableEventConsumer } from '../../apps/webhooks/src/events/durable-consumer';
import { TestStack } from '../support/stack';
import { envelopeOf, signatureValid } from '../webhooks/emit';
import { WebhookReceiver, webhookStack } from '../support/webhook-receiver';
import { until } from '../support/wait';
import { billingMerchant, BillingClient, billingQuery, expectError } from './billing-fixtures';

jest.setTimeout(60_000);

/** Cancel, pause, resume from every state, the cascade to children, invoices, and the cancelled event. */
describe('subscription lifecycle', () => {
  let stack: TestStack;
  let m: BillingClient;
  let monthly: Record<string, any>;
  let trial: Record<string, any>;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    stack = await webhookStack({
      services: ['payments', 'billing'],
    });
    m = await billingMerchant(stack);
    monthly = await m.plan({ amount: 1200 });
    trial = await m.plan({ trialPeriodDays: 7 });
  });
  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
  });

  const op = (id: string, verb: string, key?: string) =>
    m.post(`/v1/subscription/${id}/${verb}`, { merchantCode: m.merchantCode }, key);
  /** A subscription in `status`: past_due, suspended and completed come from renewals, so they are set directly. */
  async function inState(status: string): Promise<string> {
    const future = new Date(Date.now() + 5 * 86_400_000).toISOString();
    const base =
      status === 'trialing'
        ? { planId: trial.id }
        : status === 'pending'
          ? { planId: monthly.id, startAt: future }
          : { planId: monthly.id };
    const s = await m.subscription(base);
    if (status === 'paused') expect((await op(s.id, 'pause')).status).toBe(200);
    if (status === 'cancelled') expect((await op(s.id, 'cancel')).status).toBe(200);
    if (['past_due', 'suspended', 'completed'].includes(status)) {
      await billingQuery(stack, 'UPDATE subscriptions SET status = $2 WHERE id = $1', [s.id, status]);
    }
    return s.id;
  }
  const ALL = ['pending', 'trialing', 'active', 'past_due', 'suspended', 'paused', 'cancelled', 'completed'];

  it('cancel: from every non-terminal state; cancelled and completed are 409', async () => {
    for (const status of ALL) {
      const id = await inState(status);
      const r = await op(id, 'cancel');
      if (status === 'cancelled' || status === 'completed') {
        expectError(r, 409, 'INVALID_STATE');
      } else {
        expect({ status, code: r.status, to: r.body.status }).toEqual({ status, code: 200, to: 'cancelled' });
        expect(r.body.cancelledAt).toEqual(expect.any(String));
        expect(r.body.nextBillingDate).toBeNull();
        expect(r.body.plan.id).toBe(r.body.planId);
      }
    }
  });

  it('pause from active, trialing and past_due; resume from paused only', async () => {
    for (const status of ALL) {
      const id = await inState(status);
      const r = await op(id, 'pause');
      if (['active', 'trialing', 'past_due'].includes(status)) {
        expect({ status, code: r.status, to: r.body.status }).toEqual({ status, code: 200, to: 'paused' });
        expect(r.body.pausedAt).toEqual(expect.any(String));
      } else {
        expect({ status, code: r.status, error: r.body.error?.code }).toEqual({
          status,
          code: 409,
          error: 'INVALID_STATE',
        });
      }
    }
    for (const status of ALL) {
      const id = await inState(status);
      const r = await op(id, 'resume');
      if (status === 'paused') {
        expect(r.status).toBe(200);
        expect(r.body.status).toBe('active');
        const resumedAt = new Date(r.body.currentPeriodStart);
        expect(r.body.nextBillingDate).toBe(r.body.currentPeriodEnd);
        const expected = new Date(
          Date.UTC(
            resumedAt.getUTCFullYear(),
            resumedAt.getUTCMonth() + 1,
            resumedAt.getUTCDate(),
            resumedAt.getUTCHours(),
            resumedAt.getUTCMinutes(),
            resumedAt.getUTCSeconds(),
            resumedAt.getUTCMilliseconds(),
          ),
        );
        if (resumedAt.getUTCDate() <= 28) expect(r.body.nextBillingDate).toBe(expected.toISOString());
        expect(Date.now() - resumedAt.getTime()).toBeLessThan(60_000);
      } else {
        expect({ status, code: r.status, error: r.body.error?.code }).toEqual({
          status,
          code: 409,
          error: 'INVALID_STATE',
        });
      }
    }
  });

  it('unknown, foreign and other-environment subscriptions are 404; cancel requires merchantCode', async () => {
    const id = await inState('active');
    const stranger = await billingMerchant(stack);
    const production = await billingMerchant(stack, 'production', m.merchantCode);
    for (const c of [stranger, production]) {
      expectError(await c.post(`/v1/subscription/${id}/cancel`, { merchantCode: c.merchantCode }), 404, 'NOT_FOUND');
      expectError(await c.post(`/v1/subscription/${id}/pause`, {}), 404, 'NOT_FOUND');
    }
    expectError(await op('not-a-uuid', 'cancel'), 404, 'NOT_FOUND');
    expectError(await op(randomUUID(), 'resume'), 404, 'NOT_FOUND');
    expect((await m.get(`/v1/subscription/${id}?merchantCode=${m.merchantCode}`)).body.status).toBe('active');
    expect((await m.post(`/v1/subscription/${id}/cancel`, {})).body.status).toBe('cancelled');
  });

  it('propagateLifecycle: pause, resume and cancel of a parent cascade to the children that follow it', async () => {
    const parent = await m.subscription({ planId: monthly.id });
    const follower = await m.subscription({
      planId: monthly.id,
      parentSubscriptionId: parent.id,
      propagateLifecycle: true,
    });
    const independent = await m.subscription({ planId: monthly.id, parentSubscriptionId: parent.id });
    const grandchild = await m.subscription({
      planId: trial.id,
      parentSubscriptionId: follower.id,
      propagateLifecycle: true,
    });
    expect(follower).toMatchObject({ parentSubscriptionId: parent.id, propagateLifecycle: true });
    const statuses = async () =>
      Promise.all(
        [follower, independent, grandchild].map(
          async (s) => (await m.get(`/v1/subscription/${s.id}?merchantCode=${m.merchantCode}`)).body.status,
        ),
      );
    await op(parent.id, 'pause');
    expect(await statuses()).toEqual(['paused', 'active', 'paused']);
    await op(parent.id, 'resume');
    expect(await statuses()).toEqual(['active', 'active', 'active']);
    await op(parent.id, 'cancel');
    expect(await statuses()).toEqual(['cancelled', 'active', 'cancelled']);
    expectError(await m.subscribe({ planId: monthly.id, parentSubscriptionId: parent.id }), 409, 'INVALID_STATE');
  });

  it('invoices: a bare array newest first, one with attempts; cancel voids open ones; one per period', async () => {
    const s = await m.subscription({ planId: monthly.id });
    const list = await m.get(`/v1/subscription/${s.id}/invoice`);
    expect(list.status).toBe(200);
    expect(list.body).toEqual([s.firstInvoice]);
    const one = await m.get(`/v1/subscription/invoice/${s.firstInvoice.id}`);
    expect(one.body).toMatchObject({ ...s.firstInvoice, attempts: [{ status: 'captured', refusalCode: null }] });
    // A renewal left unpaid (the dunning work makes these): cancelling voids it.
    const openId = uuidv7();
    await billingQuery(
      stack,
      `INSERT INTO invoices (id, subscription_id, merchant_code, environment, status, amount, currency, exponent,
         period_start, period_end, created_at, updated_at)
       VALUES ($1, $2, $3, 'sandbox', 'open', 1200, 'USD', 2, $4, $5, now(), now())`,
      [openId, s.id, m.merchantCode, s.currentPeriodEnd, new Date(Date.parse(s.currentPeriodEnd) + 30 * 86_400_000)],
    );
    await expect(
      billingQuery(
        stack,
        `INSERT INTO invoices (id, subscription_id, merchant_code, environment, status, amount, currency, exponent,
           period_start, period_end, created_at, updated_at)
         VALUES ($1, $2, $3, 'sandbox', 'open', 1200, 'USD', 2, $4, $4, now(), now())`,
        [randomUUID(), s.id, m.merchantCode, s.currentPeriodStart],
      ),
    ).rejects.toThrow(/invoices_subscription_period/);
    const newest = await m.get(`/v1/subscription/${s.id}/invoice`);
    expect(newest.body.map((i: { id: string }) => i.id)).toEqual([openId, s.firstInvoice.id]);
    await op(s.id, 'cancel');
    expect((await m.get(`/v1/subscription/invoice/${openId}`)).body.status).toBe('void');
    expect((await m.get(`/v1/subscription/invoice/${s.firstInvoice.id}`)).body.status).toBe('paid');
    expectError(await m.get(`/v1/subscription/invoice/${randomUUID()}`), 404, 'NOT_FOUND');
    expectError(await m.get('/v1/subscription/invoice/nope'), 404, 'NOT_FOUND');
  });

  it('subscription.cancelled reaches a JetStream consumer and a signed webhook, with metadata', async () => {
    const seen: EventEnvelope[] = [];
    const durable = `billing_test_${Date.now()}`;
    const consumer = new DurableEventConsumer(
      stack.gateway!.get(NatsClient),
      { durable, filterSubjects: ['subscription.cancelled'] },
      async (e) => void seen.push(e),
      pino({ level: 'silent' }),
    );
    consumer.start();
    const endpoint = await stack.http('POST', '/v1/webhook-endpoint', {
      key: m.key,
      body: { url: receiver.url('/billing'), events: ['subscription.cancelled'] },
    });
    expect(endpoint.status).toBe(201);
    try {
      const s = await m.subscription({ planId: monthly.id, metadata: { crm: 'c-1' } });
      const cancelled = (await op(s.id, 'cancel')).body;
      const events = await until(
        () => seen.filter((e) => (e.data as { id: string }).id === s.id),
        (e) => e.length > 0,
      );
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({
        type: 'subscription.cancelled',
        environment: 'sandbox',
        merchantCode: m.merchantCode,
        data: { id: s.id, status: 'cancelled', cancelledAt: cancelled.cancelledAt, metadata: { crm: 'c-1' } },
      });
      const hooks = await until(
        () => receiver.of(events[0].id),
        (r) => r.length > 0,
      );
      expect(hooks).toHaveLength(1);
      expect(envelopeOf(hooks[0].body)).toEqual(events[0]);
      expect(signatureValid(hooks[0].headers['webhook-signature'], hooks[0].body, endpoint.body.secret)).toBe(true);
    } finally {
      await consumer.stop();
      const nc = await stack.gateway!.get(NatsClient).get();
      await (await nc.jetstreamManager()).consumers.delete(EVENTS_STREAM, durable).catch(() => undefined);
    }
  });

  it('creation and the first invoice emit their events through the outbox', async () => {
    const s = await m.subscription({ planId: monthly.id });
    const rows = await until(
      () =>
        billingQuery(
          stack,
          `SELECT type FROM outbox WHERE envelope::jsonb -> 'data' ->> 'id' IN ($1, $2) ORDER BY id`,
          [s.id, s.firstInvoice.id],
        ),
      (r) => r.length >= 4,
    );
    // One transaction: ids of one millisecond do not sort by creation, so the set is what is asserted.
    expect(rows.map((r) => r.type).sort()).toEqual([
      'invoice.created',
      'invoice.paid',
      'subscription.activated',
      'subscription.created',
    ]);
  });
});
