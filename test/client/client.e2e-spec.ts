import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  constructWebhookEvent,
  createPaymentsClient,
  PaymentsApiError,
  PaymentsClient,
  unwrap,
  verifyWebhookSignature,
  WebhookVerificationError,
} from '../../clients/typescript/src';
import { cardData as card, usd } from '../payments/payments-fixtures';
import { SwitchableAcquirer } from '../payments/switchable-acquirer';
import { TestStack } from '../support/stack';
import { WebhookReceiver, webhookStack } from '../support/webhook-receiver';
import { until } from '../support/wait';

jest.setTimeout(120_000);

const CHALLENGE = '4000002500003155';

/** The typed client driving the real gateway, payments, billing and payment-links over real NATS and Postgres. */
describe('TypeScript client against the running stack', () => {
  let stack: TestStack;
  let receiver: WebhookReceiver;
  let merchantCode: string;
  let apiKey: string;
  let client: PaymentsClient;
  const acquirer = new SwitchableAcquirer();

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    stack = await webhookStack({
      services: ['payments', 'billing', 'payment-links'],
      connectors: [acquirer],
    });
    merchantCode = await stack.merchant();
    apiKey = (await stack.key([merchantCode])).key;
    client = createPaymentsClient({ apiKey, baseUrl: stack.url });
  });
  afterEach(() => {
    acquirer.authorizations = 'sandbox';
    acquirer.answerHung();
  });
  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
  });

  it('the running gateway serves the committed OpenAPI document the client types come from', async () => {
    const served = (await stack.http('GET', '/openapi.json', { port: 'internal' })).body;
    const committed = JSON.parse(readFileSync(join(__dirname, '../../clients/typescript/openapi.json'), 'utf8'));
    expect({ ...served, servers: undefined }).toEqual({ ...committed, servers: undefined });
  });

  const purchase = (c: PaymentsClient, code: string, cardNumber?: string) =>
    unwrap(
      c.POST('/v1/payment/purchase', {
        body: { merchantCode: code, orderCode: `order-${randomUUID()}`, amount: usd(1000), card: card(cardNumber) },
      }),
    );

  it('purchases and refunds, and a refused operation throws the error envelope as PaymentsApiError', async () => {
    const paid = await purchase(client, merchantCode);
    expect(paid).toMatchObject({ status: 'captured', amountCaptured: { value: 1000 } });
    const refunded = await unwrap(
      client.POST('/v1/payment/{id}/refund', {
        params: { path: { id: paid.id } },
        body: { merchantCode, amount: usd(1000) },
      }),
    );
    expect(refunded).toMatchObject({ id: paid.id, status: 'refunded', amount: { value: 1000 } });
    const again = await unwrap(
      client.POST('/v1/payment/{id}/refund', {
        params: { path: { id: paid.id } },
        body: { merchantCode, amount: usd(1) },
      }),
    ).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(PaymentsApiError);
    expect(again).toMatchObject({ status: 409, code: 'INVALID_STATE', requestId: expect.any(String) });
    const read = await unwrap(client.GET('/v1/payment/{id}', { params: { path: { id: paid.id } } }));
    expect(read).toMatchObject({ status: 'refunded', amountRefunded: { value: 1000 } });
  });

  it('resumes a 3DS purchase after client.sandbox.completeChallenge', async () => {
    const pending = await purchase(client, merchantCode, CHALLENGE);
    expect(pending.status).toBe('pending_3ds');
    const sessionId = pending.actionRequired!.sessionId;
    // The shopper's part, played by the sandbox.
    const done = await client.sandbox.completeChallenge(sessionId, { outcome: 'authenticated' });
    expect(done).toEqual({ sessionId, outcome: 'authenticated' });
    const resumed = await unwrap(client.POST('/v1/payment/resume', { body: { sessionId } }));
    expect(resumed).toMatchObject({ id: pending.id, status: 'captured' });
  });

  it('client.sandbox.settle settles a pending APM payment', async () => {
    const pending = await unwrap(
      client.POST('/v1/payment/purchase', {
        body: {
          orderCode: `order-${randomUUID()}`,
          amount: usd(5000),
          paymentMethod: 'ach',
          apm: {
            accountHolderName: 'John Doe',
            accountNumber: '000123456789',
            routingNumber: '110000000',
            accountType: 'checking',
          },
        },
      }),
    );
    expect(pending.status).toBe('pending_action');
    const settled = await client.sandbox.settle(pending.id, { outcome: 'paid' });
    expect(settled).toMatchObject({ id: pending.id, status: 'captured', amountCaptured: { value: 5000 } });
    const again = await client.sandbox.settle(pending.id, { outcome: 'failed' }).catch((e: unknown) => e);
    expect(again).toMatchObject({ status: 409, code: 'INVALID_STATE' });
  });

  it('client.sandbox.advanceClock moves the sandbox clock; a production key gets 403 from every sandbox method', async () => {
    const code = await stack.merchant();
    const own = createPaymentsClient({ apiKey: (await stack.key([code])).key, baseUrl: stack.url });
    const before = Date.parse((await own.sandbox.clock()).now);
    const moved = await own.sandbox.advanceClock({ by: 'P10D' });
    expect(Date.parse(moved.now) - before).toBeGreaterThanOrEqual(10 * 86_400_000);
    expect(Date.parse((await own.sandbox.clock()).now)).toBeGreaterThanOrEqual(Date.parse(moved.now));
    const backwards = await own.sandbox.advanceClock({ to: new Date(before).toISOString() }).catch((e: unknown) => e);
    expect(backwards).toMatchObject({ status: 422, code: 'CLOCK_BACKWARDS' });

    const production = createPaymentsClient({
      apiKey: (await stack.key([code], 'private', 'production')).key,
      baseUrl: stack.url,
    });
    const refusals = await Promise.all(
      [
        production.sandbox.clock(),
        production.sandbox.advanceClock({ by: 'P1D' }),
        production.sandbox.completeChallenge(randomUUID(), { outcome: 'authenticated' }),
        production.sandbox.settle(randomUUID(), { outcome: 'paid' }),
      ].map((call) => call.catch((e: unknown) => e)),
    );
    for (const refusal of refusals) {
      expect(refusal).toBeInstanceOf(PaymentsApiError);
      expect(refusal).toMatchObject({ status: 403, code: 'AUTH_INSUFFICIENT_SCOPE' });
    }
    expect(Date.parse((await own.sandbox.clock()).now)).toBeLessThan(before + 11 * 86_400_000);
  });

  it('creates a plan and a subscription, then cancels it', async () => {
    const plan = await unwrap(
      client.POST('/v1/subscription/plan', {
        body: { name: 'Pro', interval: 'month', amount: 1999, currency: 'USD' },
      }),
    );
    const created = await unwrap(
      client.POST('/v1/subscription', {
        body: { planId: plan.id, customerEmail: 'jane@example.com', card: card() },
      }),
    );
    expect(created).toMatchObject({ planId: plan.id, status: 'active', cyclesCompleted: 1 });
    const cancelled = await unwrap(
      client.POST('/v1/subscription/{id}/cancel', { params: { path: { id: created.id } }, body: { merchantCode } }),
    );
    expect(cancelled).toMatchObject({ id: created.id, status: 'cancelled' });
  });

  it('creates, reads, lists and cancels a payment link', async () => {
    const link = await unwrap(client.POST('/v1/payment-link', { body: { amount: usd(2500), title: 'Order 42' } }));
    expect(link).toMatchObject({ status: 'active', title: 'Order 42' });
    expect(link.url).toContain(`/checkout/${link.id}`);
    const read = await unwrap(client.GET('/v1/payment-link/{id}', { params: { path: { id: link.id } } }));
    expect(read.id).toBe(link.id);
    const listed: string[] = [];
    for await (const l of client.paginate('/v1/payment-link')) listed.push(l.id);
    expect(listed).toContain(link.id);
    const cancelled = await unwrap(
      client.POST('/v1/payment-link/{id}/cancel', { params: { path: { id: link.id } }, body: {} }),
    );
    expect(cancelled.status).toBe('cancelled');
  });

  it('pages through 45 payments with the async iterator, newest first, each once', async () => {
    const code = await stack.merchant();
    const own = createPaymentsClient({ apiKey: (await stack.key([code])).key, baseUrl: stack.url });
    const made: string[] = [];
    for (let i = 0; i < 45; i++) made.push((await purchase(own, code)).id);
    const seen: string[] = [];
    const pages: (string | null)[] = [];
    const counting = createPaymentsClient({
      apiKey: (await stack.key([code])).key,
      baseUrl: stack.url,
      fetch: (input) => {
        pages.push(new URL(input.url).searchParams.get('startingAfter'));
        return fetch(input);
      },
    });
    for await (const p of counting.paginate('/v1/payment', { query: { limit: 10 } })) seen.push(p.id);
    expect(seen).toEqual([...made].reverse());
    expect(pages).toEqual([null, seen[9], seen[19], seen[29], seen[39]]);
  });

  it('a POST whose answer is lost is sent again under the same Idempotency-Key and replays the payment', async () => {
    const code = await stack.merchant();
    const key = (await stack.key([code])).key;
    const sent: (string | null)[] = [];
    let lost = 0;
    const flaky = createPaymentsClient({
      apiKey: key,
      baseUrl: stack.url,
      retry: { baseDelayMs: 10 },
      fetch: async (input) => {
        sent.push(input.headers.get('idempotency-key'));
        const answer = await fetch(input);
        if (lost++ === 0) {
          // The server did the work; the connection dropped before the answer arrived.
          await answer.arrayBuffer();
          throw new TypeError('fetch failed: socket hang up');
        }
        return answer;
      },
    });
    const payment = await purchase(flaky, code);
    expect(payment.status).toBe('captured');
    expect(sent).toHaveLength(2);
    expect(sent[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent[1]).toBe(sent[0]);
    const reader = createPaymentsClient({ apiKey: key, baseUrl: stack.url });
    const all = await unwrap(reader.GET('/v1/payment', {}));
    expect(all.map((p) => p.id)).toEqual([payment.id]);
  });

  it('a plan, a meter and a webhook endpoint whose answers are lost are each made once', async () => {
    const code = await stack.merchant();
    const key = (await stack.key([code])).key;
    const sent: string[] = [];
    const flaky = createPaymentsClient({
      apiKey: key,
      baseUrl: stack.url,
      retry: { baseDelayMs: 10 },
      fetch: async (input) => {
        const answer = await fetch(input);
        sent.push(`${input.method} ${input.headers.get('idempotency-key')}`);
        if (sent.length % 2 === 1) {
          // Done by the server; the connection dropped before the answer arrived.
          await answer.arrayBuffer();
          throw new TypeError('fetch failed: socket hang up');
        }
        return answer;
      },
    });
    const plan = await unwrap(
      flaky.POST('/v1/subscription/plan', { body: { name: 'Once', interval: 'month', amount: 500, currency: 'USD' } }),
    );
    const meter = await unwrap(
      flaky.POST('/v1/subscription/meter', {
        body: { code: 'once', name: 'Once', aggregation: 'sum', pricing: { scheme: 'per_unit', unitAmount: 1 } },
      }),
    );
    const hook = await unwrap(
      flaky.POST('/v1/webhook-endpoint', { body: { url: receiver.url('/once'), events: ['*'] } }),
    );
    const renamed = await unwrap(
      flaky.PATCH('/v1/subscription/plan/{id}', { params: { path: { id: String(plan.id) } }, body: { name: 'Twice' } }),
    );
    expect(renamed.name).toBe('Twice');
    // Each request went twice under one key; each made one thing.
    expect(sent).toHaveLength(8);
    for (let i = 0; i < 8; i += 2) expect(sent[i + 1]).toBe(sent[i]);
    const reader = createPaymentsClient({ apiKey: key, baseUrl: stack.url });
    expect((await unwrap(reader.GET('/v1/subscription/plan', {}))).map((p) => p.id)).toEqual([plan.id]);
    expect((await unwrap(reader.GET('/v1/subscription/meter', {}))).map((m) => m.id)).toEqual([meter.id]);
    const hooks = await unwrap(reader.GET('/v1/webhook-endpoint', {}));
    expect(hooks.map((h) => h.id)).toEqual([hook.id]);
    expect(hook.secret).toMatch(/^whsec_/);
  });

  it('a POST answered 409 IDEMPOTENCY_IN_PROGRESS is retried under its key and replays the first request', async () => {
    const code = await stack.merchant();
    const key = (await stack.key([code])).key;
    const idempotencyKey = randomUUID();
    const body = { merchantCode: code, orderCode: `order-${randomUUID()}`, amount: usd(1000), card: card() };
    const before = acquirer.authorizationCalls.length;
    acquirer.authorizations = 'hangs';
    const first = stack.http('POST', '/v1/payment/purchase', {
      key,
      body,
      headers: { 'idempotency-key': idempotencyKey },
    });
    // The first request is at the acquirer, which does not answer yet.
    await until(
      () => acquirer.authorizationCalls.length,
      (n) => n === before + 1,
    );
    const answers: number[] = [];
    const patient = createPaymentsClient({
      apiKey: key,
      baseUrl: stack.url,
      fetch: async (input) => {
        const answer = await fetch(input);
        answers.push(answer.status);
        if (answer.status === 409) {
          // The first request is still at the acquirer; let it finish before the retry.
          acquirer.authorizations = 'sandbox';
          acquirer.answerHung();
        }
        return answer;
      },
    });
    const replayed = await unwrap(
      patient.POST('/v1/payment/purchase', { body, headers: { 'Idempotency-Key': idempotencyKey } }),
    );
    const original = await first;
    expect(original.status).toBe(200);
    expect(answers).toEqual([409, 200]);
    expect(replayed).toEqual(original.body);
  });

  it("verifies a real webhook delivery's Webhook-Signature, and refuses it tampered or with another secret", async () => {
    const code = await stack.merchant();
    const own = createPaymentsClient({ apiKey: (await stack.key([code])).key, baseUrl: stack.url });
    const endpoint = await unwrap(
      own.POST('/v1/webhook-endpoint', { body: { url: receiver.url(`/${code}`), events: ['payment.captured'] } }),
    );
    const secret = endpoint.secret!;
    const paid = await purchase(own, code);
    const delivered = await until(
      () => receiver.received.filter((r) => r.path === `/${code}`),
      (list) => list.length > 0,
      30_000,
    );
    expect(delivered).toHaveLength(1);
    const { body, headers } = delivered[0];
    const event = constructWebhookEvent(body, headers, secret);
    expect(event).toMatchObject({ type: 'payment.captured', merchantCode: code, data: { id: paid.id } });
    expect(event.id).toBe(headers['webhook-id']);
    expect(verifyWebhookSignature(body, String(headers['webhook-signature']), secret)).toBe(true);
    expect(() => constructWebhookEvent(body.replace(paid.id, randomUUID()), headers, secret)).toThrow(
      WebhookVerificationError,
    );
    expect(() => constructWebhookEvent(body, headers, 'whsec_not_this_one')).toThrow(WebhookVerificationError);
  });
});
