import { ALL_EVENT_TYPES, EventAggregate, EventType, EVENTS_STREAM } from './events';
import {
  BillingSubjects,
  GatewaySubjects,
  PaymentLinksSubjects,
  PaymentsExtrasSubjects,
  PaymentsSubjects,
  ServiceName,
  WebhooksSubjects,
} from './subjects';

/**
 * Who may use which subject on NATS. Each app connects with a credential of its own, and the NATS server
 * lets it publish and subscribe only what is declared here (scripts/nats-config.js writes the server's
 * permissions from it; docs/operations.md#nats-credentials). The maps are typed over every subject, so a new
 * command or event does not compile until it says who sends it.
 */
export type NatsApp = 'gateway' | ServiceName;
export const NATS_APPS: readonly NatsApp[] = ['gateway', 'payments', 'payment-links', 'billing', 'webhooks'];

type ValueOf<T> = T[keyof T];
export type CommandSubject =
  | ValueOf<typeof PaymentsSubjects>
  | ValueOf<typeof PaymentsExtrasSubjects>
  | ValueOf<typeof PaymentLinksSubjects>
  | ValueOf<typeof BillingSubjects>
  | ValueOf<typeof WebhooksSubjects>;

const gateway: NatsApp = 'gateway';
const links: NatsApp = 'payment-links';
const billing: NatsApp = 'billing';

/** The apps that send each command. The service that serves it is named by the subject: `cmd.<service>.…`. */
export const COMMAND_CALLERS: Readonly<Record<CommandSubject, readonly NatsApp[]>> = {
  [PaymentsSubjects.ping]: [gateway],
  [PaymentsSubjects.purchase]: [gateway, links, billing],
  [PaymentsSubjects.purchaseMany]: [billing],
  [PaymentsSubjects.authorize]: [gateway, billing],
  [PaymentsSubjects.capture]: [gateway],
  [PaymentsSubjects.refund]: [gateway],
  [PaymentsSubjects.cancel]: [gateway],
  // Billing gives back a charge whose subscription could not be recorded (it never refunds on its own).
  [PaymentsSubjects.cancelOrRefund]: [gateway, billing],
  [PaymentsSubjects.get]: [gateway, links, billing],
  [PaymentsSubjects.inquiry]: [gateway],
  [PaymentsSubjects.keylessInquiry]: [gateway],
  [PaymentsSubjects.list]: [gateway, links],
  [PaymentsSubjects.stats]: [gateway],
  [PaymentsSubjects.exportPayments]: [gateway],
  [PaymentsSubjects.exportRefunds]: [gateway],
  [PaymentsSubjects.upsertConnection]: [gateway],
  [PaymentsSubjects.listConnections]: [gateway],
  [PaymentsSubjects.clockAdvanced]: [gateway],
  [PaymentsSubjects.getToken]: [billing],
  [PaymentsSubjects.checkToken]: [billing],
  [PaymentsExtrasSubjects.createNonce]: [gateway],
  [PaymentsExtrasSubjects.resume]: [gateway],
  [PaymentsExtrasSubjects.resumeLinkPayment]: [links],
  [PaymentsExtrasSubjects.sessionView]: [gateway],
  [PaymentsExtrasSubjects.completeChallenge]: [gateway],
  [PaymentsExtrasSubjects.sandboxChallenge]: [gateway],
  [PaymentsExtrasSubjects.sandboxSettle]: [gateway],
  [PaymentsExtrasSubjects.connectorWebhook]: [gateway],
  [PaymentsExtrasSubjects.challengeReturn]: [gateway],
  [PaymentLinksSubjects.ping]: [gateway],
  [PaymentLinksSubjects.create]: [gateway],
  [PaymentLinksSubjects.get]: [gateway],
  [PaymentLinksSubjects.list]: [gateway],
  [PaymentLinksSubjects.cancel]: [gateway],
  [PaymentLinksSubjects.checkoutView]: [gateway],
  [PaymentLinksSubjects.pay]: [gateway],
  [PaymentLinksSubjects.resume]: [gateway],
  [PaymentLinksSubjects.clockAdvanced]: [gateway],
  [BillingSubjects.ping]: [gateway],
  [BillingSubjects.getPlan]: [gateway, links],
  [BillingSubjects.createSubscription]: [gateway, links],
  [BillingSubjects.createPlan]: [gateway],
  [BillingSubjects.updatePlan]: [gateway],
  [BillingSubjects.archivePlan]: [gateway],
  [BillingSubjects.listPlans]: [gateway],
  [BillingSubjects.createMeter]: [gateway],
  [BillingSubjects.listMeters]: [gateway],
  [BillingSubjects.getSubscription]: [gateway],
  [BillingSubjects.listSubscriptions]: [gateway],
  [BillingSubjects.cancelSubscription]: [gateway],
  [BillingSubjects.pauseSubscription]: [gateway],
  [BillingSubjects.resumeSubscription]: [gateway],
  [BillingSubjects.changePlan]: [gateway],
  [BillingSubjects.updatePaymentMethod]: [gateway],
  [BillingSubjects.listInvoices]: [gateway],
  [BillingSubjects.retryParkedRenewal]: [gateway],
  [BillingSubjects.getInvoice]: [gateway],
  [BillingSubjects.exportInvoices]: [gateway],
  [BillingSubjects.recordUsage]: [gateway],
  [BillingSubjects.recordUsageBatch]: [gateway],
  [BillingSubjects.retryPayment]: [gateway],
  [BillingSubjects.putRecoveryPolicy]: [gateway],
  [BillingSubjects.getRecoveryPolicy]: [gateway],
  [BillingSubjects.recoveryReport]: [gateway],
  [BillingSubjects.clockAdvanced]: [gateway],
  [WebhooksSubjects.ping]: [gateway],
  [WebhooksSubjects.createEndpoint]: [gateway],
  [WebhooksSubjects.listEndpoints]: [gateway],
  [WebhooksSubjects.getEndpoint]: [gateway],
  [WebhooksSubjects.updateEndpoint]: [gateway],
  [WebhooksSubjects.rollEndpointSecret]: [gateway],
  [WebhooksSubjects.deleteEndpoint]: [gateway],
  [WebhooksSubjects.testEndpoint]: [gateway],
  [WebhooksSubjects.listDeliveries]: [gateway],
  [WebhooksSubjects.resendDelivery]: [gateway],
  [WebhooksSubjects.getSecret]: [gateway],
  [WebhooksSubjects.rollSecret]: [gateway],
  [WebhooksSubjects.listEvents]: [gateway],
  [WebhooksSubjects.getEvent]: [gateway],
  [WebhooksSubjects.registerMerchant]: [gateway],
};

export const COMMAND_SUBJECTS = Object.keys(COMMAND_CALLERS) as CommandSubject[];

/** The service that serves a command: the second token of its subject. */
export const commandServiceOf = (subject: CommandSubject): ServiceName => subject.split('.')[1] as ServiceName;

/** The service that owns each aggregate publishes its events (through its outbox). */
const EVENT_OWNERS: Readonly<Record<EventAggregate, NatsApp>> = {
  payment: 'payments',
  payment_link: 'payment-links',
  payment_method: 'payments',
  subscription: 'billing',
  invoice: 'billing',
};

/** Events another app publishes: the gateway blocks a link's checkout when it sees card testing. */
const EVENT_PUBLISHED_ELSEWHERE: Readonly<Partial<Record<EventType, NatsApp>>> = {
  'payment_link.attempts_blocked': 'gateway',
};

/** The one app that publishes an event type. */
export const eventPublisherOf = (type: EventType): NatsApp =>
  EVENT_PUBLISHED_ELSEWHERE[type] ?? EVENT_OWNERS[type.split('.')[0] as EventAggregate];

export const eventsPublishedBy = (app: NatsApp): EventType[] =>
  ALL_EVENT_TYPES.filter((t) => eventPublisherOf(t) === app);

/** Broadcasts between gateway replicas (and from the gateway's CLI): only the gateway sends and hears them. */
const BROADCASTERS: Readonly<Record<ValueOf<typeof GatewaySubjects>, readonly NatsApp[]>> = {
  [GatewaySubjects.keyRevoked]: [gateway],
  [GatewaySubjects.sandboxClockAdvanced]: [gateway],
};

/**
 * The apps that read the EVENTS stream through a durable consumer: the webhooks service's deliveries and event
 * list, and the gateway's card-update emails.
 */
const EVENT_CONSUMERS: readonly NatsApp[] = ['webhooks', gateway];

/** Replies to an app's requests arrive under an inbox prefix of its own, which no other app may read. */
export const inboxPrefixOf = (app: string): string => `_INBOX.${app}`;

/** JetStream API calls of every app: the outbox relay and the event consumer make sure EVENTS exists. */
const STREAM_API = [
  '$JS.API.INFO',
  `$JS.API.STREAM.INFO.${EVENTS_STREAM}`,
  `$JS.API.STREAM.CREATE.${EVENTS_STREAM}`,
  `$JS.API.STREAM.UPDATE.${EVENTS_STREAM}`,
];

/** A durable pull consumer on EVENTS (any name: WEBHOOK_CONSUMER_NAME), its pulls and its acknowledgements. */
const CONSUMER_API = [
  `$JS.API.CONSUMER.INFO.${EVENTS_STREAM}.*`,
  `$JS.API.CONSUMER.CREATE.${EVENTS_STREAM}.>`,
  `$JS.API.CONSUMER.DURABLE.CREATE.${EVENTS_STREAM}.*`,
  `$JS.API.CONSUMER.MSG.NEXT.${EVENTS_STREAM}.*`,
  `$JS.ACK.${EVENTS_STREAM}.>`,
];

export interface NatsPermissions {
  publish: string[];
  subscribe: string[];
  /** May answer the requests it received (a service's command replies), and only those. */
  allowResponses: boolean;
}

/** What an app's NATS user may do: everything else is refused by the server. */
export function natsPermissionsOf(app: NatsApp): NatsPermissions {
  const calls = COMMAND_SUBJECTS.filter((s) => COMMAND_CALLERS[s].includes(app));
  const serves = COMMAND_SUBJECTS.filter((s) => commandServiceOf(s) === app);
  const broadcasts = (Object.keys(BROADCASTERS) as Array<keyof typeof BROADCASTERS>).filter((s) =>
    BROADCASTERS[s].includes(app),
  );
  const consumes = EVENT_CONSUMERS.includes(app);
  return {
    publish: [...calls, ...eventsPublishedBy(app), ...broadcasts, ...STREAM_API, ...(consumes ? CONSUMER_API : [])],
    subscribe: [...serves, ...broadcasts, `${inboxPrefixOf(app)}.>`],
    allowResponses: serves.length > 0,
  };
}
