import { randomUUID } from 'node:crypto';
import { createServer, Server } from 'node:https';
import { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import {
  ConnectorNotSent,
  ConnectorOutcomeUnknown,
  WebhookRejected,
  type AuthorizationRequest,
  type ConnectorConnection,
} from '../../../apps/payments/src/connector/provider-connector';
import { ManualClock } from '@app/clock';
import { StripeConnector } from '../../../apps/payments/src/connector/stripe/stripe.connector';
import { StripeDouble } from '../../support/connectors/stripe/stripe-double';
import { fixtureCopy, shapeViolations } from '../../support/connectors/stripe/stripe-shape';
import { selfSignedCert } from '../../support/webhook-receiver';

/** Unknown outcomes, idempotency, transport errors, webhooks, and the double's own checks. */
const double = new StripeDouble({ timeoutMs: 1_500 });
let connection: ConnectorConnection;
const connector = () => double.connector();

const authorization = (overrides: Partial<AuthorizationRequest> = {}): AuthorizationRequest => ({
  paymentId: randomUUID(),
  at: new Date(),
  reference: `res_${randomUUID()}`,
  amount: { currency: 'EUR', value: 2500, exponent: 2 },
  capture: true,
  paymentMethod: 'card',
  card: {
    source: 'cardData',
    cardNumber: '4111111111111111',
    expiryMonth: '12',
    expiryYear: '2030',
    cvv: '123',
    brand: 'visa',
    type: 'credit',
    tokenize: false,
  },
  initiator: 'cardholder',
  returnUrl: 'https://gateway.example/return/abc',
  ...overrides,
});

beforeAll(async () => {
  await double.start();
  connection = double.connection('sandbox');
});
afterAll(() => double.stop());
afterEach(() => expect(double.takeViolations()).toEqual([]));

describe('idempotency and unknown outcomes', () => {
  it('a retry with the same reference gets the same PaymentIntent: the card is charged once', async () => {
    const request = authorization();
    const first = await connector().authorize(connection, request);
    const again = await connector().authorize(connection, request);
    expect(again).toEqual(first);
    expect(double.chargesFor(request.reference)).toBe(1);
    const keys = double.requests.filter(
      (r) => r.path === '/v1/payment_intents' && r.idempotencyKey === request.reference,
    );
    expect(keys).toHaveLength(2);
  });

  it("the same reference with other parameters is Stripe's idempotency_error, not a second charge", async () => {
    const request = authorization();
    await connector().authorize(connection, request);
    const other = await connector().authorize(connection, { ...request, amount: { ...request.amount, value: 9900 } });
    expect(other).toMatchObject({ kind: 'failed', message: expect.stringContaining('same parameters') });
    expect(double.chargesFor(request.reference)).toBe(1);
  });

  it('a charge whose answer is lost is an unknown outcome; sync by reference finds the one charge, a retry replays it', async () => {
    const request = authorization();
    double.dropAnswerAfterNextCharge();
    await expect(connector().authorize(connection, request)).rejects.toBeInstanceOf(ConnectorOutcomeUnknown);
    expect(double.chargesFor(request.reference)).toBe(1);
    const synced = await connector().sync(connection, { reference: request.reference });
    expect(synced).toMatchObject({ kind: 'approved', acquirerReference: expect.stringMatching(/^pi_/) });
    await expect(connector().authorize(connection, request)).resolves.toEqual(synced);
    expect(double.chargesFor(request.reference)).toBe(1);
  });

  it('sync of a reference Stripe never saw is undefined', async () => {
    await expect(connector().sync(connection, { reference: `res_${randomUUID()}` })).resolves.toBeUndefined();
    await expect(
      connector().sync(connection, { acquirerReference: 'pi_unknown', reference: 'x' }),
    ).resolves.toBeUndefined();
  });
});

describe('transport errors', () => {
  let server: Server;
  let port: number;
  let answer: (res: import('node:http').ServerResponse) => void;
  beforeAll(async () => {
    server = createServer(selfSignedCert(), (req, res) => {
      req.resume();
      req.on('end', () => answer(res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const at = (p: number): ConnectorConnection => ({
    ...connection,
    connectionCode: `at-${p}`,
    endpoint: `https://127.0.0.1:${p}`,
  });

  it('a Stripe 5xx after sending is an unknown outcome', async () => {
    answer = (res) =>
      res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"type":"api_error","message":"boom"}}');
    await expect(connector().authorize(at(port), authorization())).rejects.toBeInstanceOf(ConnectorOutcomeUnknown);
  });

  it('no answer within the timeout is an unknown outcome', async () => {
    answer = () => undefined;
    await expect(
      connector().capture(at(port), {
        paymentId: randomUUID(),
        reference: 'op_1',
        acquirerReference: 'pi_1',
        amount: { currency: 'EUR', value: 1, exponent: 2 },
      }),
    ).rejects.toBeInstanceOf(ConnectorOutcomeUnknown);
  });

  it('a refused connection was never sent', async () => {
    const closed = createServer(selfSignedCert());
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const free = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(connector().authorize(at(free), authorization())).rejects.toBeInstanceOf(ConnectorNotSent);
  });

  it("a live key on a sandbox connection fails before sending; a wrong key is Stripe's 401", async () => {
    const live = {
      ...connection,
      connectionCode: 'mixed',
      credentials: { ...connection.credentials, apiKey: 'sk_live_x' },
    };
    await expect(connector().authorize(live, authorization())).resolves.toMatchObject({
      kind: 'failed',
      message: expect.stringContaining('a live key on a sandbox connection'),
    });
    const wrong = {
      ...connection,
      connectionCode: 'wrong',
      credentials: { ...connection.credentials, apiKey: 'sk_test_wrong' },
    };
    await expect(connector().authorize(wrong, authorization())).resolves.toMatchObject({
      kind: 'failed',
      message: expect.stringContaining('Invalid API Key'),
    });
    expect(double.takeViolations()).toEqual(['POST /v1/payment_methods: no valid API key']);
  });

  it('a production connection uses its live key', async () => {
    const request = authorization();
    await expect(connector().authorize(double.connection('production'), request)).resolves.toMatchObject({
      kind: 'approved',
    });
  });
});

describe('webhooks', () => {
  it('verifies Stripe-Signature and maps each event; a redelivery keeps its event id', async () => {
    const request = authorization({ capture: false });
    const auth = await connector().authorize(connection, request);
    const pi = auth.acquirerReference!;
    const call = double.webhook('authorisation', pi);
    const [first] = connector().parseWebhook(connection, call.rawBody, call.headers);
    expect(first).toMatchObject({
      eventId: expect.stringMatching(/^evt_/),
      kind: 'authorisation',
      success: true,
      acquirerReference: pi,
      merchantReference: request.reference,
      amount: { currency: 'EUR', value: 2500, exponent: 2 },
      providerEvent: 'payment_intent.amount_capturable_updated',
    });
    expect(connector().parseWebhook(connection, call.rawBody, call.headers)[0].eventId).toBe(first.eventId);
    await connector().capture(connection, {
      paymentId: request.paymentId,
      reference: `op_${randomUUID()}`,
      acquirerReference: pi,
      amount: request.amount,
    });
    const refund = await connector().refund(connection, {
      paymentId: request.paymentId,
      reference: `op_${randomUUID()}`,
      acquirerReference: pi,
      amount: { ...request.amount, value: 700 },
    });
    const expectations: Array<[Parameters<StripeDouble['webhook']>[0], object, object?]> = [
      [
        'capture',
        { kind: 'capture', providerEvent: 'charge.captured', modificationReference: expect.stringMatching(/^ch_/) },
      ],
      [
        'refund',
        {
          kind: 'refund',
          providerEvent: 'charge.refunded',
          modificationReference: refund.providerReference,
          amount: { currency: 'EUR', value: 700, exponent: 2 },
        },
      ],
      [
        'refund_failed',
        {
          kind: 'refund_failed',
          success: false,
          providerEvent: 'refund.failed',
          modificationReference: refund.providerReference,
        },
        { modificationReference: refund.providerReference },
      ],
      [
        'chargeback',
        {
          kind: 'chargeback',
          providerEvent: 'charge.dispute.created',
          modificationReference: expect.stringMatching(/^dp_/),
        },
      ],
      ['chargeback_reversed', { kind: 'chargeback_reversed', providerEvent: 'charge.dispute.closed' }],
      [
        'authorisation',
        {
          kind: 'authorisation',
          success: false,
          providerEvent: 'payment_intent.payment_failed',
          refusalCode: expect.objectContaining({ reasonCode: '5' }),
        },
        { success: false },
      ],
      ['cancellation', { kind: 'cancellation', providerEvent: 'payment_intent.canceled' }],
    ];
    for (const [kind, expected, options] of expectations) {
      const hook = double.webhook(kind, pi, options);
      expect(connector().parseWebhook(connection, hook.rawBody, hook.headers)).toEqual([
        expect.objectContaining({
          acquirerReference: pi,
          eventId: expect.not.stringMatching(first.eventId),
          ...expected,
        }),
      ]);
    }
  });

  it('rejects a body or signature that does not verify', async () => {
    const auth = await connector().authorize(connection, authorization());
    const call = double.webhook('authorisation', auth.acquirerReference!);
    const tampered = Buffer.from(call.rawBody.toString().replace('"livemode": false', '"livemode": true'));
    expect(() => connector().parseWebhook(connection, tampered, call.headers)).toThrow(WebhookRejected);
    const otherSecret = { ...connection, credentials: { ...connection.credentials, webhookSecret: 'whsec_other' } };
    expect(() => connector().parseWebhook(otherSecret, call.rawBody, call.headers)).toThrow(WebhookRejected);
    expect(() => connector().parseWebhook(connection, call.rawBody, {})).toThrow(WebhookRejected);
  });
});

describe('webhook timestamps', () => {
  it('takes an event signed within five minutes of the injected clock, and not one older', async () => {
    const auth = await connector().authorize(connection, authorization());
    const call = double.webhook('authorisation', auth.acquirerReference!);
    const clock = new ManualClock(new Date(Date.now() + 4 * 60_000));
    const late = new StripeConnector({ clock });
    expect(late.parseWebhook(connection, call.rawBody, call.headers)).toHaveLength(1);
    clock.advance(2 * 60_000);
    expect(() => late.parseWebhook(connection, call.rawBody, call.headers)).toThrow(WebhookRejected);
  });
});

describe('the double holds Stripe to its document', () => {
  it('rejects an unknown parameter with 400 parameter_unknown and records it', async () => {
    const stripe = new Stripe('sk_test_51DoubleSandboxKey0000000000', {
      host: '127.0.0.1',
      port: new URL(double.origin()).port,
      protocol: 'https',
      httpAgent: new (await import('node:https')).Agent({ ca: double.certificate() }),
      maxNetworkRetries: 0,
    });
    const params = { amount: 100, currency: 'usd', surprise: 'yes' } as Stripe.PaymentIntentCreateParams;
    await expect(stripe.paymentIntents.create(params)).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
      code: 'parameter_unknown',
      param: 'surprise',
    });
    expect(double.takeViolations()).toEqual(['POST /v1/payment_intents: Received unknown parameter: surprise']);
  });

  it('flags an answer that lacks a fixture key or has one the fixture does not know', async () => {
    const auth = await connector().authorize(connection, authorization());
    double.tamperNextAnswer((body) => delete body.latest_charge);
    await connector().sync(connection, { acquirerReference: auth.acquirerReference!, reference: 'x' });
    expect(double.takeViolations()).toEqual([
      expect.stringContaining('payment_intent.latest_charge: missing (fixture key)'),
    ]);
    const refund = { ...fixtureCopy('refund'), surprise: 1 };
    expect(shapeViolations(refund, 'refund')).toEqual(['refund.surprise: not a key of the fixture']);
    expect(shapeViolations({ ...fixtureCopy('refund'), amount: '100' }, 'refund')).toEqual([
      'refund.amount: string where the fixture has number',
    ]);
  });
});
