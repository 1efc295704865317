/**
 * The values of the OpenAPI document's request and answer examples (openapi-examples.ts builds them from the
 * schemas and these). Money in minor units with the currency's exponent; cards are the sandbox acquirer's test
 * cards (apps/payments/src/connector/sandbox-cards.ts), never a real number; ids are uuid v7 as the API answers them.
 */

export type NamedExamples = Record<string, { summary: string; value: unknown }>;

export const EXAMPLE_TIME = '2026-11-26T10:00:00.000Z';
const LATER = '2026-11-26T10:30:00.000Z';
const NEXT_MONTH = '2026-12-26T10:00:00.000Z';
export const PAYMENT = '0193a5b2-7c4e-7d21-9f3a-5b6c7d8e9f01';
const SUBSCRIPTION = '0193a5c0-1d2e-7f30-8a4b-6c7d8e9fa012';
const INVOICE = '0193a5c0-1d31-7a02-b3c4-d5e6f708192a';
const LINK = '0193a5c4-5e6f-7a81-9b2c-3d4e5f60718a';
export const SESSION = '0193a5b2-7c51-7e10-8f2a-3b4c5d6e7f80';
export const NONCE = 'nonce_9f2c7a1e4b6d8f0312ab';
export const TOKEN = 'vt_0193a5b27c4e7d219f3a5b6c';
export const usd = (value: number) => ({ currency: 'USD', value, exponent: 2 });
export const CARD = {
  cardNumber: '4111111111111111',
  cardholderName: 'Ada Lovelace',
  expiryMonth: '12',
  expiryYear: '2030',
  cvv: '123',
};
export const CARD_VIEW = {
  cardData: { brand: 'visa', cardNumber: '411111****1111', type: 'credit', expiryMonth: '12', expiryYear: '2030' },
  networkTransactionId: '583103536844189',
  networkReferenceId: null,
};
const PLAN = {
  id: 7,
  merchantId: 1042,
  name: 'Pro monthly',
  description: 'Pro plan, billed monthly',
  interval: 'month',
  amount: 1999,
  trialPeriodDays: 0,
  introBillingCycles: 0,
  maxBillingCycles: 0,
  availableCountries: ['US', 'CA'],
  isActive: true,
  meterCodes: ['api_requests'],
  archivedAt: null,
};
const SUBSCRIPTION_VIEW = {
  id: SUBSCRIPTION,
  planId: 7,
  customerName: 'Ada Lovelace',
  cardBrand: 'visa',
  networkTransactionId: '483920117654321',
  status: 'active',
  currentPeriodStart: EXAMPLE_TIME,
  currentPeriodEnd: NEXT_MONTH,
  nextBillingDate: NEXT_MONTH,
  activatedAt: EXAMPLE_TIME,
  cyclesCompleted: 1,
  dunningAttemptCount: 0,
  metadata: { crmId: 'cus_8812' },
};
const INVOICE_VIEW = {
  id: INVOICE,
  subscriptionId: SUBSCRIPTION,
  status: 'paid',
  amount: 1999,
  periodStart: EXAMPLE_TIME,
  periodEnd: NEXT_MONTH,
  paymentAttemptCount: 1,
  lines: [{ description: 'Pro monthly', amount: 1999 }],
  paidAt: EXAMPLE_TIME,
  attempts: [{ at: EXAMPLE_TIME, paymentId: PAYMENT, status: 'captured' }],
  createdAt: EXAMPLE_TIME,
  currency: 'USD',
  exponent: 2,
};
const DELIVERY = {
  status: 'succeeded',
  deliveryStatus: 'succeeded',
  resendable: false,
  object: { type: 'payment', id: '0193a5d0-1a2b-7c3d-8e4f-5a6b7c8d9e0f' },
  responseStatus: 200,
  responseExcerpt: '{"received":true}',
  durationMs: 84,
  error: null,
  nextAttemptAt: null,
};
const USAGE_EVENT = {
  subscriptionId: SUBSCRIPTION,
  meterCode: 'api_requests',
  quantity: 120,
  occurredAt: EXAMPLE_TIME,
  duplicate: false,
};

/** A field without an example of its own takes the value of its name, in whatever schema. */
export const NAMED_VALUES: Record<string, unknown> = {
  merchantCode: 'acme',
  merchantCodes: ['acme'],
  merchantId: 1042,
  environment: 'sandbox',
  currency: 'USD',
  currencies: ['USD', 'EUR'],
  exponent: 2,
  customerEmail: 'ada@example.com',
  customerName: 'Ada Lovelace',
  orderCode: 'order-1001',
  paymentCode: 'pay-1001',
  connectionCode: 'sandbox',
  connectionName: 'Sandbox acquirer',
  instanceId: 'payments-7f9c2d',
  requestId: '0b6f1c1e-5a8e-4c39-9d7e-2f4b8a1d3c55',
  clientToken: 'eyJhbGciOiJIUzI1NiJ9.eyJtZXJjaGFudENvZGUiOiJhY21lIn0.5pTzqZbYx3u0nK2c',
  nonce: NONCE,
  sessionId: SESSION,
  message: 'Payment approved',
};

/** Laid over the example built from a schema: the values a real answer of that schema would show. */
export const SCHEMA_EXAMPLES: Record<string, unknown> = {
  MerchantResponse: { merchantCode: 'acme', name: 'Acme Inc.' },
  CreateKeyRequest: { type: 'private', environment: 'sandbox' },
  CreatedKeyResponse: { key: 'prv_sandbox_3kR9…(shown once)', type: 'private' },
  KeyResponse: { type: 'private', revokedAt: null },
  PaymentResponse: {
    id: PAYMENT,
    status: 'captured',
    autorizationCode: 'A1B2C3',
    amount: usd(1999),
    amountCaptured: usd(1999),
    amountRefunded: usd(0),
    card: CARD_VIEW,
    metadata: { cartId: 'cart-7731' },
  },
  CaptureRequest: { amount: usd(1999), reference: 'shipment-5521' },
  RefundRequest: { amount: usd(500), reference: 'RMA-3321' },
  CancelRequest: { reference: 'order-1001-void' },
  CancelOrRefundRequest: { merchantCode: 'acme', reference: 'order-1001-reversal' },
  OperationResult: { id: PAYMENT, amount: usd(1999), status: 'captured' },
  ConnectionRequest: { acquirer: 'sandbox', environment: 'sandbox', currencies: ['EUR', 'USD'], methods: ['card'] },
  ConnectionResponse: {
    id: '0193a5a0-2b3c-7d4e-8f50-617283940a1b',
    connectionCode: 'sandbox-eu',
    connectionName: 'Sandbox Europe',
    currencies: ['EUR', 'USD'],
    methods: ['card'],
    priority: 10,
    isDefault: false,
  },
  ConnectionHealthView: {
    circuit: 'closed',
    lastSuccessAt: EXAMPLE_TIME,
    lastFailureAt: '2026-11-26T09:41:07.000Z',
    lastFailureReason: 'timeout',
    errorRate: 0.02,
    recentCalls: 100,
  },
  DashboardConnectionResponse: {
    id: '0193a5a0-2b3c-7d4e-8f50-617283940a1b',
    acquirer: 'adyen',
    environment: 'sandbox',
    currencies: ['EUR'],
    methods: ['card'],
    priority: 10,
    isDefault: false,
  },
  CreatePlanRequest: {
    merchantCode: 'acme',
    description: 'Pro plan, billed monthly',
    interval: 'month',
    meterCodes: ['api_requests'],
  },
  PlanView: PLAN,
  PlanListItem: { ...PLAN, subscriberCount: 42 },
  UpdatePlanRequest: { name: 'Pro monthly (2027)', isActive: true },
  CreateMeterRequest: { merchantCode: 'acme', aggregation: 'sum', includedUnits: 1000 },
  PricingDto: { scheme: 'per_unit', unitAmount: 2 },
  MeterView: { code: 'api_requests', name: 'API requests', aggregation: 'sum', includedUnits: 1000 },
  CreateSubscriptionRequest: { planId: 7, customerName: 'Ada Lovelace', card: { cardData: CARD } },
  SubscriptionView: SUBSCRIPTION_VIEW,
  CreatedSubscriptionView: {
    ...SUBSCRIPTION_VIEW,
    firstInvoice: INVOICE_VIEW,
  },
  InvoiceView: INVOICE_VIEW,
  MerchantBody: { merchantCode: 'acme' },
  MerchantQuery: { merchantCode: 'acme' },
  ChangePlanRequest: { planId: 8, applyAt: 'now' },
  PaymentMethodRequest: { card: { nonceData: { nonce: NONCE } } },
  CreateWebhookEndpointRequest: { events: ['payment.captured', 'payment.refunded', 'subscription.renewed'] },
  UpdateWebhookEndpointRequest: { events: ['payment.captured', 'payment.refunded'], disabled: false },
  WebhookEndpointResponse: { events: ['payment.captured', 'payment.refunded'] },
  CreatedWebhookEndpointResponse: { events: ['payment.captured', 'payment.refunded', 'subscription.renewed'] },
  RolledWebhookEndpointResponse: {
    events: ['payment.captured', 'payment.refunded'],
    previousSecretExpiresAt: '2026-11-26T11:00:00.000Z',
  },
  RollSecretRequest: { merchantCode: 'acme', expiresInSeconds: 3600 },
  WebhookSecretResponse: { previousSecretExpiresAt: null },
  WebhookDeliveryResponse: { ...DELIVERY, eventId: '0193a5d0-2b3c-7d4e-8f50-61728394a5b6', attemptedAt: EXAMPLE_TIME },
  EventResponse: {
    data: {
      id: PAYMENT,
      status: 'captured',
      paymentCode: 'pay-1001',
      orderCode: 'order-1001',
      merchantCode: 'acme',
      paymentMethod: 'card',
      amount: usd(1999),
      amountCaptured: usd(1999),
      createdAt: EXAMPLE_TIME,
    },
  },
  SdkSessionRequest: { merchantCode: 'acme', currency: 'USD', country: 'US', amount: usd(1999) },
  SdkSessionResponse: { expiresAt: LATER },
  CreateNonceRequest: { cardData: CARD },
  NonceResponse: { expiresAt: '2026-11-26T10:15:00.000Z' },
  ChallengeOutcomeRequest: { outcome: 'authenticated' },
  ChallengeOutcomeResponse: { outcome: 'authenticated' },
  SandboxChallengeRequest: { outcome: 'authenticated', merchantCode: 'acme' },
  SettleRequest: { outcome: 'paid', merchantCode: 'acme' },
  CreatePaymentLinkRequest: {
    merchantCode: 'acme',
    amount: usd(2500),
    title: 'Annual membership',
    reference: 'INV-2026-0042',
    customerEmail: 'ada@example.com',
    returnUrl: 'https://shop.example.com/thanks',
  },
  PaymentLinkResponse: {
    id: LINK,
    url: `http://localhost:3000/checkout/${LINK}`,
    type: 'one-time',
    status: 'active',
    amountMode: 'fixed',
    amount: usd(2500),
    title: 'Annual membership',
    reference: 'INV-2026-0042',
    customerEmail: 'ada@example.com',
    returnUrl: 'https://shop.example.com/thanks',
    saveCardEnabled: false,
    reusable: false,
    usesCount: 0,
    metadata: {},
    expiresAt: '2026-11-27T10:00:00.000Z',
  },
  PayLinkRequest: { customerEmail: 'ada@example.com' },
  PayerResult: {
    outcome: 'succeeded',
    link: { id: LINK, status: 'used', type: 'one-time', amountMode: 'fixed', amount: usd(2500) },
    payment: { id: PAYMENT, paymentCode: 'pay-1001', status: 'captured', amount: usd(2500) },
    returnUrl: 'https://shop.example.com/thanks',
  },
  SandboxClockResponse: { now: '2026-12-26T10:00:00.000Z' },
  AdvanceClockRequest: { to: undefined, by: 'P1M', merchantCode: 'acme' },
  UsageRequest: { subscriptionId: SUBSCRIPTION, quantity: 120 },
  UsageEventView: USAGE_EVENT,
  UsageBatchRequest: {
    merchantCode: 'acme',
    events: [
      { subscriptionId: SUBSCRIPTION, meterCode: 'api_requests', quantity: 120, idempotencyKey: 'usage-2026-11-26-a' },
      { subscriptionId: SUBSCRIPTION, meterCode: 'api_requests', quantity: 80, idempotencyKey: 'usage-2026-11-26-b' },
    ],
  },
  UsageBatchResponse: { results: [{ index: 0, status: 201, event: { id: PAYMENT, ...USAGE_EVENT } }] },
};
