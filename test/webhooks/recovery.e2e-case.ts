import { createHmac } from 'node:crypto';
import { DataSource } from 'typeorm';
import { uuidv7 } from '@app/clock';
import { EventTypes } from '@app/contracts';
import { EventRetentionLoop } from '../../apps/webhooks/src/events/event-retention.loop';
import { TestStack } from '../support/stack';
import { Attempt, emit, signatureValid } from './emit';
import { WebhookReceiver, webhookStack } from '../support/webhook-receiver';
import { until } from '../support/wait';

jest.setTimeout(90_000);

/** The provider's header, checked as its plugins do: any `sha256=` entry matching the secret. */
const providerSignatureValid = (header: unknown, body: string, secret: string): boolean =>
  String(header)
    .split(',')
    .includes(`sha256=${createHmac('sha256', secret).update(body).digest('hex')}`);

describe('webhooks a merchant can recover from', () => {
  let stack: TestStack;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    stack = await webhookStack({
      services: [],
      // One retry, a minute after the first try: long enough that only a resend sends it sooner.
      env: { WEBHOOK_RETRY_SCHEDULE: '60' },
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
  });
  beforeEach(() => {
    receiver.respond = () => 200;
  });

  const account = async () => {
    const code = await stack.merchant();
    return { code, key: (await stack.key([code])).key };
  };
  const endpoint = (key: string, body: Record<string, unknown>) =>
    stack.http('POST', '/v1/webhook-endpoint', { key, body });
  const deliveries = async (id: string, key: string) =>
    (await stack.http<Attempt[]>('GET', `/v1/webhook-endpoint/${id}/deliveries`, { key })).body;
  const captured = (code: string, data: Record<string, unknown> = {}) =>
    emit(stack.gateway!, EventTypes.paymentCaptured, code, {
      id: uuidv7(),
      paymentCode: 'p1',
      orderCode: 'o1',
      ...data,
    });
  const received = (eventId: string, n = 1) =>
    until(
      () => receiver.of(eventId),
      (x) => x.length >= n,
    );

  describe('rolling a secret', () => {
    it('an endpoint rolls its own secret; the old one signs beside it for 24 h by default, in both headers', async () => {
      const a = await account();
      const ep = await endpoint(a.key, { url: receiver.url('/roll'), events: ['*'] });
      const rolled = await stack.http('POST', `/v1/webhook-endpoint/${ep.body.id}/roll-secret`, { key: a.key });
      expect(rolled.status).toBe(200);
      expect(rolled.body).toMatchObject({ id: ep.body.id, url: ep.body.url, disabled: false });
      expect(rolled.body.secret).toMatch(/^whsec_/);
      expect(rolled.body.secret).not.toBe(ep.body.secret);
      const grace = Date.parse(rolled.body.previousSecretExpiresAt) - Date.now();
      expect(grace).toBeGreaterThan(86_400_000 - 60_000);
      expect(grace).toBeLessThanOrEqual(86_400_000 + 1000);
      // Shown once: reading the endpoint never shows it.
      expect(
        (await stack.http('GET', `/v1/webhook-endpoint/${ep.body.id}`, { key: a.key })).body.secret,
      ).toBeUndefined();

      const event = await captured(a.code);
      const [got] = await received(event.id);
      const v1 = String(got.headers['webhook-signature'])
        .split(',')
        .filter((p) => p.startsWith('v1='));
      expect(v1).toHaveLength(2);
      expect(String(got.headers['x-therius-signature']).split(',')).toHaveLength(2);
      for (const secret of [rolled.body.secret, ep.body.secret]) {
        expect(signatureValid(got.headers['webhook-signature'], got.body, secret)).toBe(true);
        expect(providerSignatureValid(got.headers['x-therius-signature'], got.body, secret)).toBe(true);
      }
    });

    it('expiresInSeconds: 0 retires the old secret at once; outside 0..86400 is 400', async () => {
      const a = await account();
      const ep = await endpoint(a.key, { url: receiver.url('/roll0'), events: ['*'] });
      const path = `/v1/webhook-endpoint/${ep.body.id}/roll-secret`;
      for (const expiresInSeconds of [-1, 86_401, 'soon']) {
        const bad = await stack.http('POST', path, { key: a.key, body: { expiresInSeconds } });
        expect(bad.status).toBe(400);
        expect(bad.body.error).toMatchObject({ code: 'VALIDATION_FAILED', param: 'expiresInSeconds' });
      }
      const rolled = await stack.http('POST', path, { key: a.key, body: { expiresInSeconds: 0 } });
      expect(rolled.body.previousSecretExpiresAt).toBeNull();
      const event = await captured(a.code);
      const [got] = await received(event.id);
      expect(got.headers['x-therius-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
      expect(signatureValid(got.headers['webhook-signature'], got.body, rolled.body.secret)).toBe(true);
      expect(signatureValid(got.headers['webhook-signature'], got.body, ep.body.secret)).toBe(false);
      expect(providerSignatureValid(got.headers['x-therius-signature'], got.body, ep.body.secret)).toBe(false);
      const missing = await stack.http('POST', `/v1/webhook-endpoint/${uuidv7()}/roll-secret`, { key: a.key });
      expect(missing.status).toBe(404);
    });

    it("the account secret (a payment's webhookUrl) keeps the old one live after a roll too", async () => {
      const a = await account();
      const before = (await stack.http('GET', '/v1/webhook-secret', { key: a.key })).body.secret;
      const rolled = await stack.http('POST', '/v1/webhook-secret/roll', { key: a.key, body: {} });
      expect(rolled.status).toBe(200);
      expect(rolled.body.previousSecretExpiresAt).toEqual(expect.any(String));
      const event = await captured(a.code, { webhookUrl: receiver.url('/account') });
      const [got] = await received(event.id);
      for (const secret of [rolled.body.secret, before]) {
        expect(signatureValid(got.headers['webhook-signature'], got.body, secret)).toBe(true);
        expect(providerSignatureValid(got.headers['x-therius-signature'], got.body, secret)).toBe(true);
      }
    });
  });

  describe('PATCH /v1/webhook-endpoint/{id}', () => {
    it('updates url, events and description; disabled gets no deliveries until enabled again', async () => {
      const a = await account();
      const ep = await endpoint(a.key, { url: receiver.url('/old'), events: ['payment.refunded'], description: 'v1' });
      expect(ep.body).toMatchObject({ description: 'v1', disabled: false });
      const path = `/v1/webhook-endpoint/${ep.body.id}`;
      const patched = await stack.http('PATCH', path, {
        key: a.key,
        body: { url: receiver.url('/new'), events: ['payment.captured'], description: 'Order sync' },
      });
      expect(patched.status).toBe(200);
      expect(patched.body).toEqual({
        id: ep.body.id,
        url: receiver.url('/new'),
        events: ['payment.captured'],
        environment: 'sandbox',
        description: 'Order sync',
        disabled: false,
        createdAt: ep.body.createdAt,
      });
      expect((await stack.http('GET', path, { key: a.key })).body).toEqual(patched.body);
      const first = await captured(a.code);
      expect((await received(first.id)).map((g) => g.path)).toEqual(['/new']);

      const off = await stack.http('PATCH', path, { key: a.key, body: { disabled: true } });
      expect(off.body).toMatchObject({ disabled: true, url: receiver.url('/new'), description: 'Order sync' });
      const skipped = await captured(a.code);
      await new Promise((r) => setTimeout(r, 1000));
      expect(receiver.of(skipped.id)).toEqual([]);
      expect((await deliveries(ep.body.id, a.key)).map((d) => d.eventId)).not.toContain(skipped.id);

      await stack.http('PATCH', path, { key: a.key, body: { disabled: false, description: '' } });
      const again = await captured(a.code);
      expect(await received(again.id)).toHaveLength(1);
      expect((await stack.http('GET', path, { key: a.key })).body).toMatchObject({
        disabled: false,
        description: null,
      });
    });

    it('validates like creation, and 404s what is not the merchant’s', async () => {
      const a = await account();
      const b = await account();
      const ep = await endpoint(a.key, { url: receiver.url('/v'), events: ['*'] });
      const path = `/v1/webhook-endpoint/${ep.body.id}`;
      const cases = [
        [{ events: ['payment.nope'] }, 'events'],
        [{ events: [] }, 'events'],
        [{ url: 'http://example.com/hook' }, 'url'],
        [{ disabled: 'yes' }, 'disabled'],
      ] as const;
      for (const [body, param] of cases) {
        const r = await stack.http('PATCH', path, { key: a.key, body });
        expect({ status: r.status, code: r.body.error?.code, param: r.body.error?.param }).toEqual({
          status: 400,
          code: 'VALIDATION_FAILED',
          param,
        });
      }
      expect((await stack.http('PATCH', path, { key: b.key, body: { disabled: true } })).status).toBe(404);
      expect((await stack.http('PATCH', '/v1/webhook-endpoint/nope', { key: a.key, body: {} })).status).toBe(404);
      expect((await stack.http('GET', path, { key: a.key })).body.disabled).toBe(false);
    });
  });

  describe('resending a delivery', () => {
    it('a failed delivery is sent now, a dead one gets a new try; same Webhook-Id and body every time', async () => {
      const a = await account();
      const ep = await endpoint(a.key, { url: receiver.url('/resend'), events: ['*'] });
      receiver.respond = () => 503;
      const event = await captured(a.code);
      let log = await until(
        () => deliveries(ep.body.id, a.key),
        (l) => l.some((x) => x.status === 'failed'),
      );
      // Failed, the retry a minute away: a resend brings it forward.
      const failed = log.find((x) => x.status === 'failed')!;
      const resent = await stack.http('POST', `/v1/webhook-endpoint/${ep.body.id}/deliveries/${failed.id}/resend`, {
        key: a.key,
      });
      expect(resent.status).toBe(202);
      expect(resent.body).toMatchObject({ eventId: event.id, attempt: 2, status: 'pending' });
      log = await until(
        () => deliveries(ep.body.id, a.key),
        (l) => l[0]?.status === 'dead',
      );
      expect(log.map((x) => [x.attempt, x.status])).toEqual([
        [2, 'dead'],
        [1, 'failed'],
      ]);

      // Dead: a new try, due now, in the same log.
      receiver.respond = () => 200;
      const again = await stack.http('POST', `/v1/webhook-endpoint/${ep.body.id}/deliveries/${log[0].id}/resend`, {
        key: a.key,
      });
      expect(again.status).toBe(202);
      expect(again.body).toMatchObject({ eventId: event.id, attempt: 3, status: 'pending' });
      log = await until(
        () => deliveries(ep.body.id, a.key),
        (l) => l[0]?.status === 'succeeded',
      );
      expect(log.map((x) => [x.attempt, x.status])).toEqual([
        [3, 'succeeded'],
        [2, 'dead'],
        [1, 'failed'],
      ]);
      const got = receiver.of(event.id);
      expect(got).toHaveLength(3);
      expect(new Set(got.map((g) => g.body)).size).toBe(1);
      expect(signatureValid(got[2].headers['webhook-signature'], got[2].body, ep.body.secret)).toBe(true);

      const done = await stack.http('POST', `/v1/webhook-endpoint/${ep.body.id}/deliveries/${log[0].id}/resend`, {
        key: a.key,
      });
      expect(done.status).toBe(409);
      expect(done.body.error.code).toBe('INVALID_STATE');
      const unknown = await stack.http('POST', `/v1/webhook-endpoint/${ep.body.id}/deliveries/${uuidv7()}/resend`, {
        key: a.key,
      });
      expect(unknown.status).toBe(404);
      const b = await account();
      const foreign = await stack.http('POST', `/v1/webhook-endpoint/${ep.body.id}/deliveries/${log[0].id}/resend`, {
        key: b.key,
      });
      expect(foreign.status).toBe(404);
    });
  });

  describe('GET /v1/events', () => {
    it('lists the merchant’s events newest first, filters by type and time, pages, and shows one', async () => {
      const a = await account();
      const other = await account();
      const e1 = await captured(a.code);
      await new Promise((r) => setTimeout(r, 20));
      const e2 = await emit(stack.gateway!, EventTypes.paymentRefunded, a.code, { id: uuidv7(), paymentCode: 'p2' });
      await new Promise((r) => setTimeout(r, 20));
      const e3 = await captured(a.code);
      const foreign = await captured(other.code);
      const list = (query = '', key = a.key) => stack.http('GET', `/v1/events${query}`, { key });
      const ids = async (query = '') => ((await list(query)).body as Array<{ id: string }>).map((e) => e.id);
      expect(
        await until(
          () => ids(),
          (x) => x.length === 3,
        ),
      ).toEqual([e3.id, e2.id, e1.id]);

      const one = await stack.http('GET', `/v1/events/${e2.id}`, { key: a.key });
      expect(one.status).toBe(200);
      expect(one.body).toMatchObject({ ...e2, event: e2.type, created_at: e2.createdAt });
      expect(one.body.data).toMatchObject({ payment_code: 'p2' });
      expect((await stack.http('GET', `/v1/events/${foreign.id}`, { key: a.key })).status).toBe(404);
      expect((await stack.http('GET', '/v1/events/not-an-id', { key: a.key })).status).toBe(404);

      expect(await ids('?type=payment.captured')).toEqual([e3.id, e1.id]);
      expect(await ids(`?createdFrom=${encodeURIComponent(e2.createdAt)}`)).toEqual([e3.id, e2.id]);
      expect(await ids(`?createdTo=${encodeURIComponent(e2.createdAt)}`)).toEqual([e1.id]);
      expect(await ids('?limit=2')).toEqual([e3.id, e2.id]);
      expect(await ids(`?limit=2&startingAfter=${e2.id}`)).toEqual([e1.id]);
      expect((await list(`?startingAfter=${foreign.id}`)).status).toBe(404);
      for (const q of ['?type=payment.nope', '?limit=0', '?createdFrom=yesterday']) {
        expect((await list(q)).body.error.code).toBe('VALIDATION_FAILED');
      }
      expect(await ids('?type=payment.refunded')).toEqual([e2.id]);
      expect(((await list('', other.key)).body as Array<{ id: string }>).map((e) => e.id)).toEqual([foreign.id]);
    });

    it('keeps events 30 days: the retention sweep deletes older ones only', async () => {
      const a = await account();
      const kept = await captured(a.code);
      await until(
        async () => (await stack.http('GET', `/v1/events/${kept.id}`, { key: a.key })).status,
        (s) => s === 200,
      );
      const db = stack.webhooks.get(DataSource);
      const old = uuidv7();
      await db.query(
        `INSERT INTO webhook_events (id, type, merchant_code, environment, created_at, body, received_at)
         VALUES ($1, 'payment.captured', $2, 'sandbox', now() - interval '31 days', '{}', now() - interval '31 days')`,
        [old, a.code],
      );
      await stack.webhooks.get(EventRetentionLoop).sweep();
      const left: Array<{ id: string }> = await db.query('SELECT id FROM webhook_events WHERE merchant_code = $1', [
        a.code,
      ]);
      expect(left.map((r) => r.id)).toEqual([kept.id]);
    });
  });
});
