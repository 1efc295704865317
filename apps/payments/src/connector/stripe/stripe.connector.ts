import { SystemClock, type Clock } from '@app/clock';
import Stripe from 'stripe';
import {
  ConnectorNotSent,
  ConnectorOutcomeUnknown,
  type AuthorizationOutcome,
  type AuthorizationRequest,
  type ChallengeCompletion,
  type ConnectorCapabilities,
  type ConnectorConnection,
  type ModificationOutcome,
  type ModificationRequest,
  type ProviderConnector,
  type ProviderNotification,
  type SyncedStatus,
  type WebhookAcknowledgement,
} from '../provider-connector';
import {
  StripeClients,
  StripeConfigurationError,
  classifyStripeError,
  type StripeConnectorOptions,
} from './stripe-client';
import { authorizationOutcome, toStripeAmount } from './stripe-mapping';
import { stripeRefusal } from './stripe-refusals';
import { parseStripeWebhook } from './stripe-webhooks';

/** Stripe's own refund reasons; any other reason of ours goes into the refund's metadata. */
const REFUND_REASONS = new Set<string>(['duplicate', 'fraudulent', 'requested_by_customer']);

/**
 * Card payments through Stripe's PaymentIntents API with the official `stripe` package (22.5.0, API version
 * 2026-07-29.dahlia). Our `reference` is the Idempotency-Key of every POST and `metadata.reference` of the
 * PaymentIntent; GETs (retrieve, list, search) need none. What each operation becomes is in
 * docs/connectors-stripe.md.
 */
export class StripeConnector implements ProviderConnector {
  readonly acquirer = 'stripe';
  /** Stripe captures a PaymentIntent once (multicapture is an IC+ feature we do not request). */
  readonly capabilities: ConnectorCapabilities = { multipleCaptures: false, statusSync: true };
  readonly webhookAcknowledgement: WebhookAcknowledgement = {
    status: 200,
    contentType: 'application/json',
    body: '{}',
  };
  private readonly clients: StripeClients;
  private readonly clock: Clock;

  constructor(options: StripeConnectorOptions & { clock?: Clock } = {}) {
    this.clients = new StripeClients(options);
    this.clock = options.clock ?? new SystemClock();
  }

  async authorize(connection: ConnectorConnection, request: AuthorizationRequest): Promise<AuthorizationOutcome> {
    const money = toStripeAmount(request.amount);
    if (typeof money === 'string') return { kind: 'failed', acquirerReference: null, message: money };
    const merchantInitiated = request.initiator === 'merchant';
    try {
      const stripe = this.clients.for(connection);
      const paymentMethod = await this.paymentMethod(stripe, request);
      if (!paymentMethod) {
        return { kind: 'failed', acquirerReference: null, message: 'The Stripe connector takes card payments only' };
      }
      // The original network transaction id cites the stored credential when the card is not stored at Stripe
      // (a card-on-file migrated from another acquirer). `mit_exemption` is a gated Stripe parameter that the
      // package's 22.5.0 types do not list: the account must have it enabled (docs/connectors-stripe.md).
      const citeNetworkId = merchantInitiated && request.networkTransactionId && !request.providerPaymentMethodId;
      const params: Stripe.PaymentIntentCreateParams = {
        ...money,
        confirm: true,
        capture_method: request.capture ? 'automatic' : 'manual',
        payment_method: paymentMethod,
        payment_method_types: ['card'],
        metadata: { reference: request.reference, paymentId: request.paymentId, merchantCode: connection.merchantCode },
        expand: ['latest_charge'],
        ...(merchantInitiated ? { off_session: true } : request.returnUrl ? { return_url: request.returnUrl } : {}),
        ...(citeNetworkId
          ? ({
              payment_method_options: {
                card: { mit_exemption: { network_transaction_id: request.networkTransactionId } },
              },
            } as Pick<Stripe.PaymentIntentCreateParams, 'payment_method_options'>)
          : {}),
      };
      const intent = await stripe.paymentIntents.create(params, { idempotencyKey: request.reference });
      return authorizationOutcome(intent);
    } catch (error) {
      return this.authorizationError(error);
    }
  }

  /**
   * The PaymentMethod to confirm with: the stored one (`pm_…`), or one made from the card data. Raw card numbers
   * sent from our servers need Stripe's "raw card data APIs" permission on the account (PCI DSS SAQ D). The
   * package's PaymentIntent params take no `payment_method_data.card`, so the card is a PaymentMethod first,
   * under its own Idempotency-Key (`<reference>:payment_method`).
   */
  private async paymentMethod(stripe: Stripe, request: AuthorizationRequest): Promise<string | undefined> {
    if (request.providerPaymentMethodId) return request.providerPaymentMethodId;
    const card = request.card;
    if (!card) return undefined;
    const address = card.cardAddress;
    const method = await stripe.paymentMethods.create(
      {
        type: 'card',
        card: {
          number: card.cardNumber,
          exp_month: Number(card.expiryMonth),
          exp_year: Number(card.expiryYear.length === 2 ? `20${card.expiryYear}` : card.expiryYear),
          ...(card.cvv ? { cvc: card.cvv } : {}),
        },
        billing_details: {
          ...(card.cardholderName ? { name: card.cardholderName } : {}),
          ...(request.shopperEmail ? { email: request.shopperEmail } : {}),
          ...(address
            ? {
                address: {
                  ...(address.line1 ? { line1: address.line1 } : {}),
                  ...(address.line2 ? { line2: address.line2 } : {}),
                  ...(address.city ? { city: address.city } : {}),
                  ...(address.state ? { state: address.state } : {}),
                  ...(address.postalCode ? { postal_code: address.postalCode } : {}),
                  ...(address.country ? { country: address.country } : {}),
                },
              }
            : {}),
        },
      },
      { idempotencyKey: `${request.reference}:payment_method` },
    );
    return method.id;
  }

  private authorizationError(error: unknown): AuthorizationOutcome {
    if (error instanceof StripeConfigurationError)
      return { kind: 'failed', acquirerReference: null, message: error.message };
    const classified = classifyStripeError(error);
    if (classified instanceof ConnectorOutcomeUnknown || classified instanceof ConnectorNotSent) throw classified;
    if (error instanceof Stripe.errors.StripeCardError) {
      return {
        kind: 'declined',
        acquirerReference: error.payment_intent?.id ?? '',
        refusalCode: stripeRefusal(error.decline_code, error.code, error.message),
      };
    }
    if (error instanceof Stripe.errors.StripeError) {
      return { kind: 'failed', acquirerReference: error.payment_intent?.id ?? null, message: error.message };
    }
    throw error;
  }

  async completeChallenge(
    connection: ConnectorConnection,
    request: ChallengeCompletion,
  ): Promise<AuthorizationOutcome> {
    const returned = request.details?.payment_intent;
    if (returned && returned !== request.acquirerReference) {
      return {
        kind: 'failed',
        acquirerReference: request.acquirerReference,
        message: 'Another PaymentIntent returned',
      };
    }
    try {
      const intent = await this.clients
        .for(connection)
        .paymentIntents.retrieve(request.acquirerReference, { expand: ['latest_charge'] });
      return authorizationOutcome(intent);
    } catch (error) {
      return this.authorizationError(error);
    }
  }

  async capture(connection: ConnectorConnection, request: ModificationRequest): Promise<ModificationOutcome> {
    return this.modification(
      async (stripe, amount) => {
        const intent = await stripe.paymentIntents.capture(
          request.acquirerReference,
          { amount_to_capture: amount, metadata: { captureReference: request.reference } },
          { idempotencyKey: request.reference },
        );
        const charge = typeof intent.latest_charge === 'string' ? intent.latest_charge : intent.latest_charge?.id;
        return intent.status === 'succeeded'
          ? { kind: 'succeeded', providerReference: charge }
          : { kind: 'failed', providerReference: charge, message: `PaymentIntent is ${intent.status}` };
      },
      connection,
      request,
    );
  }

  async refund(connection: ConnectorConnection, request: ModificationRequest): Promise<ModificationOutcome> {
    return this.modification(
      async (stripe, amount) => {
        const reason = request.reason && REFUND_REASONS.has(request.reason) ? request.reason : undefined;
        const refund = await stripe.refunds.create(
          {
            payment_intent: request.acquirerReference,
            amount,
            ...(reason ? { reason: reason as Stripe.RefundCreateParams.Reason } : {}),
            metadata: {
              reference: request.reference,
              paymentId: request.paymentId,
              ...(request.reason && !reason ? { reason: request.reason.slice(0, 500) } : {}),
            },
          },
          { idempotencyKey: request.reference },
        );
        if (refund.status === 'succeeded') return { kind: 'succeeded', providerReference: refund.id };
        if (refund.status === 'failed' || refund.status === 'canceled') {
          return { kind: 'failed', providerReference: refund.id, message: refund.failure_reason ?? refund.status };
        }
        // `pending` / `requires_action`: settled by refund.failed or charge.refund.updated.
        return { kind: 'pending', providerReference: refund.id };
      },
      connection,
      request,
    );
  }

  async cancel(connection: ConnectorConnection, request: ModificationRequest): Promise<ModificationOutcome> {
    return this.modification(
      async (stripe) => {
        const intent = await stripe.paymentIntents.cancel(
          request.acquirerReference,
          {},
          { idempotencyKey: request.reference },
        );
        return intent.status === 'canceled'
          ? { kind: 'succeeded', providerReference: intent.id }
          : { kind: 'failed', providerReference: intent.id, message: `PaymentIntent is ${intent.status}` };
      },
      connection,
      request,
    );
  }

  private async modification(
    call: (stripe: Stripe, amount: number) => Promise<ModificationOutcome>,
    connection: ConnectorConnection,
    request: ModificationRequest,
  ): Promise<ModificationOutcome> {
    const money = toStripeAmount(request.amount);
    if (typeof money === 'string') return { kind: 'failed', message: money };
    try {
      return await call(this.clients.for(connection), money.amount);
    } catch (error) {
      const classified = classifyStripeError(error);
      if (classified instanceof ConnectorOutcomeUnknown || classified instanceof ConnectorNotSent) throw classified;
      if (error instanceof Stripe.errors.StripeError || error instanceof StripeConfigurationError) {
        return { kind: 'failed', message: error.message };
      }
      throw error;
    }
  }

  /**
   * By the PaymentIntent id: its state now (`authorized`, `captured`, `refunded`, `cancelled`, or an outcome
   * still open). By our reference only (an authorization whose answer was lost): the authorization's outcome,
   * found among the newest 100 PaymentIntents (list, read-after-write consistent) or else by Search on
   * `metadata['reference']` (Search lags writes by up to a minute, docs.stripe.com/search#data-freshness).
   */
  async sync(
    connection: ConnectorConnection,
    ref: { acquirerReference?: string; reference: string },
  ): Promise<SyncedStatus | undefined> {
    const stripe = this.clients.for(connection);
    try {
      if (!ref.acquirerReference) {
        const intent = await this.findByReference(stripe, ref.reference);
        return intent ? authorizationOutcome(intent) : undefined;
      }
      const intent = await stripe.paymentIntents.retrieve(ref.acquirerReference, { expand: ['latest_charge'] });
      const charge = typeof intent.latest_charge === 'object' ? intent.latest_charge : null;
      if (intent.status === 'succeeded') return { kind: charge?.refunded ? 'refunded' : 'captured' };
      if (intent.status === 'requires_capture') return { kind: 'authorized' };
      if (intent.status === 'canceled') return { kind: 'cancelled' };
      return authorizationOutcome(intent);
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'resource_missing') {
        return undefined;
      }
      throw classifyStripeError(error);
    }
  }

  private async findByReference(stripe: Stripe, reference: string): Promise<Stripe.PaymentIntent | undefined> {
    const recent = await stripe.paymentIntents.list({ limit: 100, expand: ['data.latest_charge'] });
    const listed = recent.data.find((intent) => intent.metadata?.reference === reference);
    if (listed) return listed;
    const query = `metadata['reference']:'${reference.replace(/['\\]/g, '\\$&')}'`;
    const found = await stripe.paymentIntents.search({ query, limit: 1, expand: ['data.latest_charge'] });
    return found.data[0];
  }

  parseWebhook(
    connection: ConnectorConnection,
    rawBody: Buffer,
    headers: Readonly<Record<string, string | undefined>>,
  ): ProviderNotification[] {
    return parseStripeWebhook(connection, rawBody, headers, this.clock.now().getTime());
  }
}
