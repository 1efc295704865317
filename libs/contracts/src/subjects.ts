/**
 * Command subjects (request-reply). They live under `cmd.` so that the EVENTS stream, which captures the
 * event subjects (`payment.>`, `subscription.>`, …), never captures a command.
 */
export const COMMAND_PREFIX = 'cmd';

export const ServiceNames = {
  payments: 'payments',
  paymentLinks: 'payment-links',
  billing: 'billing',
} as const;
export type ServiceName = (typeof ServiceNames)[keyof typeof ServiceNames];

/** Queue group per service: N replicas subscribe with it and NATS gives each message to one of them. */
export const queueGroupOf = (service: ServiceName): string => `svc.${service}`;

export const PaymentsSubjects = {
  ping: 'cmd.payments.ping',
} as const;

export const PaymentLinksSubjects = {
  ping: 'cmd.payment-links.ping',
} as const;

export const BillingSubjects = {
  ping: 'cmd.billing.ping',
} as const;

export const PingSubjects: Record<ServiceName, string> = {
  payments: PaymentsSubjects.ping,
  'payment-links': PaymentLinksSubjects.ping,
  billing: BillingSubjects.ping,
};

/** Broadcasts between gateway replicas (no queue group: every replica hears them; never in the stream). */
export const GatewaySubjects = {
  keyRevoked: 'internal.gateway.key-revoked',
} as const;
