/**
 * Command subjects (request-reply). They live under `cmd.` so that the EVENTS stream, which captures the
 * event subjects (`payment.>`, `subscription.>`, …), never captures a command.
 */
export const COMMAND_PREFIX = 'cmd';

export const ServiceNames = {
  payments: 'payments',
  paymentLinks: 'payment-links',
  billing: 'billing',
  webhooks: 'webhooks',
} as const;
export type ServiceName = (typeof ServiceNames)[keyof typeof ServiceNames];

/** Queue group per service: N replicas subscribe with it and NATS gives each message to one of them. */
export const queueGroupOf = (service: ServiceName): string => `svc.${service}`;

export const PaymentsSubjects = {
  ping: 'cmd.payments.ping',
  purchase: 'cmd.payments.purchase',
  /** Internal: several purchases of one merchant in one message (billing's renewal charges). */
  purchaseMany: 'cmd.payments.purchase.many',
  authorize: 'cmd.payments.authorize',
  capture: 'cmd.payments.capture',
  refund: 'cmd.payments.refund',
  cancel: 'cmd.payments.cancel',
  cancelOrRefund: 'cmd.payments.cancel-or-refund',
  get: 'cmd.payments.get',
  inquiry: 'cmd.payments.inquiry',
  /** Keyless: a payment by paymentCode alone (`{environment, paymentCode}`), when exactly one matches. */
  keylessInquiry: 'cmd.payments.inquiry.keyless',
  list: 'cmd.payments.list',
  /** GET /v1/payment/stats: ReportRangeQuery → PaymentStatsView (the caller's merchant and environment). */
  stats: 'cmd.payments.stats',
  /** One batch of the payments CSV export (ExportBatchCommand → ExportBatch). */
  exportPayments: 'cmd.payments.export.payments',
  /** One batch of the refunds CSV export (ExportBatchCommand → ExportBatch). */
  exportRefunds: 'cmd.payments.export.refunds',
  upsertConnection: 'cmd.payments.connections.upsert',
  listConnections: 'cmd.payments.connections.list',
  /** A merchant's sandbox clock is being advanced: run the work due up to the new time. */
  clockAdvanced: 'cmd.payments.sandbox.clock-advanced',
  /** A vault token of the caller's merchant and environment (`{token}`): its card summary, or NOT_FOUND. */
  getToken: 'cmd.payments.token.get',
  /** Billing before a renewal (CardCheckCommand → CardCheckResult): the account updater, for a card expiring. */
  checkToken: 'cmd.payments.token.check',
} as const;

export const PaymentLinksSubjects = {
  ping: 'cmd.payment-links.ping',
  create: 'cmd.payment-links.create',
  get: 'cmd.payment-links.get',
  list: 'cmd.payment-links.list',
  cancel: 'cmd.payment-links.cancel',
  /** Keyless (the link id is the credential): what the hosted checkout page shows. */
  checkoutView: 'cmd.payment-links.checkout.view',
  /** Keyless: pay a link with an SDK nonce. */
  pay: 'cmd.payment-links.checkout.pay',
  /** Keyless: finish a link payment after its 3DS challenge. */
  resume: 'cmd.payment-links.checkout.resume',
  clockAdvanced: 'cmd.payment-links.sandbox.clock-advanced',
} as const;

export const BillingSubjects = {
  ping: 'cmd.billing.ping',
  /** One plan of the caller's merchant and environment by integer id (`{id}`), answers the Plan or NOT_FOUND. */
  getPlan: 'cmd.billing.plan.get',
  /**
   * POST /v1/subscription: the REST body (`planId`, `customerEmail`, `card`, …); the payment-links service
   * sends it too, to enrol a subscription link's payer in CIT mode (`card.nonceData`).
   */
  createSubscription: 'cmd.billing.subscription.create',
  createPlan: 'cmd.billing.plan.create',
  updatePlan: 'cmd.billing.plan.update',
  archivePlan: 'cmd.billing.plan.archive',
  listPlans: 'cmd.billing.plan.list',
  createMeter: 'cmd.billing.meter.create',
  listMeters: 'cmd.billing.meter.list',
  getSubscription: 'cmd.billing.subscription.get',
  listSubscriptions: 'cmd.billing.subscription.list',
  cancelSubscription: 'cmd.billing.subscription.cancel',
  pauseSubscription: 'cmd.billing.subscription.pause',
  resumeSubscription: 'cmd.billing.subscription.resume',
  changePlan: 'cmd.billing.subscription.change-plan',
  updatePaymentMethod: 'cmd.billing.subscription.payment-method',
  listInvoices: 'cmd.billing.invoice.list',
  getInvoice: 'cmd.billing.invoice.get',
  /** One batch of the invoices CSV export (ExportBatchCommand → ExportBatch). */
  exportInvoices: 'cmd.billing.invoice.export',
  /** POST /v1/subscription/usage: UsageRequest (key in ctx.idempotencyKey) → UsageEventView. */
  recordUsage: 'cmd.billing.usage.record',
  /** POST /v1/subscription/usage/batch: UsageBatchRequest → UsageBatchResponse. */
  recordUsageBatch: 'cmd.billing.usage.record-batch',
  /** POST /v1/subscription/{id}/retry-payment: SubscriptionIdCommand → SubscriptionView (or 402). */
  retryPayment: 'cmd.billing.subscription.retry-payment',
  /** Admin: a parked renewal is retried (SubscriptionIdCommand → SubscriptionView; 409 when not parked). */
  retryParkedRenewal: 'cmd.billing.subscription.retry-parked-renewal',
  /** PUT /v1/subscription/recovery-policy: RecoveryPolicyRequest → RecoveryPolicyView (a new version). */
  putRecoveryPolicy: 'cmd.billing.recovery-policy.put',
  /** GET /v1/subscription/recovery-policy: {} → RecoveryPolicyView (the current version). */
  getRecoveryPolicy: 'cmd.billing.recovery-policy.get',
  /** GET /v1/subscription/recovery: ReportRangeQuery → RecoveryReportView (the caller's merchant and environment). */
  recoveryReport: 'cmd.billing.recovery.report',
  /** A merchant's sandbox clock moved: renewals, trial ends, deferred starts and dunning retries due by then. */
  clockAdvanced: 'cmd.billing.sandbox.clock-advanced',
} as const;

/** Webhook endpoints, signing secrets, the delivery log and the event store (the webhooks service). */
export const WebhooksSubjects = {
  ping: 'cmd.webhooks.ping',
  /** POST /v1/webhook-endpoint: CreateWebhookEndpointRequest (key in ctx.idempotencyKey). */
  createEndpoint: 'cmd.webhooks.endpoint.create',
  /** GET /v1/webhook-endpoint: PageQuery. */
  listEndpoints: 'cmd.webhooks.endpoint.list',
  getEndpoint: 'cmd.webhooks.endpoint.get',
  updateEndpoint: 'cmd.webhooks.endpoint.update',
  rollEndpointSecret: 'cmd.webhooks.endpoint.roll-secret',
  deleteEndpoint: 'cmd.webhooks.endpoint.delete',
  testEndpoint: 'cmd.webhooks.endpoint.test',
  listDeliveries: 'cmd.webhooks.delivery.list',
  resendDelivery: 'cmd.webhooks.delivery.resend',
  /** GET /v1/webhook-secret: the account signing secret (created on first read). */
  getSecret: 'cmd.webhooks.secret.get',
  rollSecret: 'cmd.webhooks.secret.roll',
  /** GET /v1/events: EventsQuery. */
  listEvents: 'cmd.webhooks.event.list',
  getEvent: 'cmd.webhooks.event.get',
  /** A merchant the gateway creates (ctx.merchantCode): its events are delivered from now on. */
  registerMerchant: 'cmd.webhooks.merchant.register',
} as const;

export const PingSubjects: Record<ServiceName, string> = {
  payments: PaymentsSubjects.ping,
  'payment-links': PaymentLinksSubjects.ping,
  billing: BillingSubjects.ping,
  webhooks: WebhooksSubjects.ping,
};

/** Broadcasts between gateway replicas (no queue group: every replica hears them; never in the stream). */
export const GatewaySubjects = {
  keyRevoked: 'internal.gateway.key-revoked',
  /** A merchant's sandbox clock moved (payload: the merchant code); replicas drop their cached offset. */
  sandboxClockAdvanced: 'internal.gateway.sandbox-clock-advanced',
} as const;

/**
 * The services that have time-driven work, in the order a sandbox clock advance asks them to run it. Each
 * answers `cmd.<service>.sandbox.clock-advanced` (ClockAdvancedCommand → ClockAdvancedResult) only once its
 * work due up to the new time has run. Their kinds of due work never read what another service's writes
 * (billing's renewals create no hold, 3DS session or link), so asking them one after another equals one time order.
 */
export const ClockAdvancedSubjects: readonly string[] = [
  PaymentsSubjects.clockAdvanced,
  PaymentLinksSubjects.clockAdvanced,
  BillingSubjects.clockAdvanced,
];

/** SDK nonces, 3DS sessions, APM settlement and the hosted pages (payments service). */
export const PaymentsExtrasSubjects = {
  createNonce: 'cmd.payments.nonce.create',
  /** POST /v1/payment/resume (keyless): refuses the session of a payment link's payment. */
  resume: 'cmd.payments.resume',
  /** The checkout's resume, through payment-links: the only way a payment link's session is resumed. */
  resumeLinkPayment: 'cmd.payments.resume-link-payment',
  sessionView: 'cmd.payments.session.view',
  /** The hosted challenge page's buttons (keyless: the session is the credential). */
  completeChallenge: 'cmd.payments.threeds.complete',
  /** POST /v1/sandbox/3ds/{sessionId} (sandbox private key, scoped to its merchant). */
  sandboxChallenge: 'cmd.payments.sandbox.threeds',
  sandboxSettle: 'cmd.payments.sandbox.settle',
  /** POST /v1/connectors/{connectionId}/webhooks (keyless: the provider's signature is the credential). */
  connectorWebhook: 'cmd.payments.connector-webhook',
  /** GET or POST /v1/3ds/return/{sessionId} (keyless): the shopper back from a provider's 3DS page. */
  challengeReturn: 'cmd.payments.threeds.return',
} as const;
