import { randomBytes, randomInt } from 'node:crypto';
import type { EventSources } from './stripe-events';
import {
  chargeObject,
  intentObject,
  paymentMethodObject,
  refundObject,
  type CardMethod,
  type ChargeState,
  type IntentState,
  type RefundState,
} from './stripe-objects';
import type { Form } from './stripe-params';

/** An HTTP answer of the double; `drop`: the connection is cut instead of answering. */
export interface Answer {
  status: number;
  body: Record<string, unknown>;
  drop?: boolean;
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const now = () => Math.floor(Date.now() / 1000);
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const wants = (params: Form, path: string) => Array.isArray(params.expand) && params.expand.includes(path);

const fail = (status: number, type: string, code: string, message: string, extra: Record<string, unknown> = {}) => ({
  status,
  body: { error: { type, code, message, doc_url: `https://stripe.com/docs/error-codes/${code}`, ...extra } },
});

/** Stripe's test cards (docs.stripe.com/testing) the conformance suite uses, and what the double does with them. */
const DECLINES: Record<string, string> = {
  '4000000000000002': 'generic_decline',
  '4000000000009995': 'insufficient_funds',
};
const FRICTIONLESS = '4000003220000000';
const CHALLENGE = '4000002500003155';

/** The double's accounts: PaymentMethods, PaymentIntents, charges and refunds, and the behaviour of test cards. */
export class StripeLedger {
  readonly methods = new Map<string, CardMethod>();
  readonly intents = new Map<string, IntentState>();
  readonly charges = new Map<string, ChargeState>();
  readonly refunds: RefundState[] = [];
  dropAfterNextCharge = false;
  private nextDecline: { declineCode?: string; code: string } | undefined;

  constructor(private readonly origin: () => string) {}

  /** The next confirmation is declined with this Stripe `decline_code` (and error `code`, `card_declined` unless given). */
  declineNext(declineCode: string | undefined, code = 'card_declined'): void {
    this.nextDecline = { declineCode, code };
  }

  /** A card PaymentMethod stored at Stripe (`pm_…`), as a merchant's saved card would be. */
  storedMethod(number: string): string {
    const method: CardMethod = { id: id('pm'), number, expMonth: 12, expYear: 2030, name: null, created: now() };
    this.methods.set(method.id, method);
    return method.id;
  }

  intent(intentId: string): IntentState | undefined {
    return this.intents.get(intentId);
  }

  chargesFor(reference: string): number {
    return [...this.charges.values()].filter(
      (c) => c.succeeded && this.intents.get(c.intentId)?.metadata.reference === reference,
    ).length;
  }

  createMethod(params: Form, livemode: boolean): Answer {
    const card = params.card as Form | undefined;
    if (params.type !== 'card' || !card || typeof card.number !== 'string') {
      return fail(400, 'invalid_request_error', 'parameter_missing', 'Missing required param: card[number].');
    }
    const billing = params.billing_details as Form | undefined;
    const method: CardMethod = {
      id: id('pm'),
      number: card.number,
      expMonth: Number(card.exp_month),
      expYear: Number(card.exp_year),
      name: str(billing?.name) ?? null,
      created: now(),
    };
    this.methods.set(method.id, method);
    return { status: 200, body: paymentMethodObject(method, livemode) };
  }

  createIntent(params: Form, livemode: boolean): Answer {
    if (params.amount === undefined || params.currency === undefined) {
      const param = params.amount === undefined ? 'amount' : 'currency';
      return fail(400, 'invalid_request_error', 'parameter_missing', `Missing required param: ${param}.`, { param });
    }
    const intent: IntentState = {
      id: id('pi'),
      amount: Number(params.amount),
      currency: String(params.currency),
      captureMethod: params.capture_method === 'manual' ? 'manual' : 'automatic',
      status: params.payment_method ? 'requires_confirmation' : 'requires_payment_method',
      metadata: (params.metadata as Record<string, string> | undefined) ?? {},
      paymentMethod: str(params.payment_method) ?? null,
      chargeId: null,
      lastError: null,
      redirectUrl: null,
      returnUrl: null,
      cancellationReason: null,
      canceledAt: null,
      citedNetworkTransactionId: null,
      offSession: false,
      created: now(),
    };
    if (intent.paymentMethod && !this.methods.has(intent.paymentMethod)) {
      return fail(400, 'invalid_request_error', 'resource_missing', `No such PaymentMethod: '${intent.paymentMethod}'`);
    }
    this.intents.set(intent.id, intent);
    if (params.confirm === 'true') return this.confirm(intent.id, params, livemode);
    return this.show(intent, params, livemode);
  }

  confirm(intentId: string, params: Form, livemode: boolean): Answer {
    const intent = this.intents.get(intentId);
    if (!intent) return missing(intentId);
    if (!['requires_confirmation', 'requires_payment_method'].includes(intent.status)) return unexpected(intent);
    if (str(params.payment_method)) intent.paymentMethod = str(params.payment_method)!;
    const method = intent.paymentMethod ? this.methods.get(intent.paymentMethod) : undefined;
    if (!method) return fail(400, 'invalid_request_error', 'payment_intent_unexpected_state', 'No payment method.');
    const options = (params.payment_method_options as Form | undefined)?.card as Form | undefined;
    intent.citedNetworkTransactionId =
      str((options?.mit_exemption as Form | undefined)?.network_transaction_id) ?? null;
    intent.offSession = params.off_session === 'true';
    intent.returnUrl = str(params.return_url) ?? null;
    const decline =
      this.nextDecline ??
      (DECLINES[method.number] ? { declineCode: DECLINES[method.number], code: 'card_declined' } : undefined);
    this.nextDecline = undefined;
    if (decline) return this.decline(intent, method, decline, params, livemode);
    if (method.number === CHALLENGE) {
      if (intent.offSession || !intent.returnUrl) {
        return this.decline(
          intent,
          method,
          { declineCode: 'authentication_required', code: 'authentication_required' },
          params,
          livemode,
        );
      }
      intent.status = 'requires_action';
      intent.redirectUrl = `${this.origin()}/3ds/${intent.id}`;
      return this.show(intent, params, livemode);
    }
    const drop = this.dropAfterNextCharge;
    this.dropAfterNextCharge = false;
    this.approve(intent, method.number === FRICTIONLESS ? 'frictionless' : null);
    return { ...this.show(intent, params, livemode), drop };
  }

  /** The shopper at the 3DS page: the intent is authorized (or fails), and the return URL is where they go next. */
  challenge(intentId: string, authenticated: boolean): string | undefined {
    const intent = this.intents.get(intentId);
    if (!intent || intent.status !== 'requires_action' || !intent.returnUrl) return undefined;
    intent.redirectUrl = null;
    if (authenticated) this.approve(intent, 'challenge');
    else {
      intent.status = 'requires_payment_method';
      intent.lastError = {
        type: 'invalid_request_error',
        code: 'payment_intent_authentication_failure',
        message: 'The provided PaymentMethod has failed authentication.',
      };
    }
    const back = new URL(intent.returnUrl);
    back.searchParams.set('payment_intent', intent.id);
    back.searchParams.set('payment_intent_client_secret', `${intent.id}_secret_double`);
    back.searchParams.set('redirect_status', authenticated ? 'succeeded' : 'failed');
    return back.toString();
  }

  capture(intentId: string, params: Form, livemode: boolean): Answer {
    const intent = this.intents.get(intentId);
    if (!intent) return missing(intentId);
    if (intent.status !== 'requires_capture') return unexpected(intent);
    const amount = params.amount_to_capture === undefined ? intent.amount : Number(params.amount_to_capture);
    if (amount > intent.amount || amount <= 0) {
      return fail(
        400,
        'invalid_request_error',
        'amount_too_large',
        'amount_to_capture exceeds the capturable amount.',
        {
          param: 'amount_to_capture',
        },
      );
    }
    this.charges.get(intent.chargeId!)!.captured = amount;
    intent.status = 'succeeded';
    if (params.metadata) Object.assign(intent.metadata, params.metadata);
    return this.show(intent, params, livemode);
  }

  cancel(intentId: string, params: Form, livemode: boolean): Answer {
    const intent = this.intents.get(intentId);
    if (!intent) return missing(intentId);
    const open = ['requires_payment_method', 'requires_capture', 'requires_confirmation', 'requires_action'];
    if (!open.includes(intent.status)) return unexpected(intent);
    intent.status = 'canceled';
    intent.redirectUrl = null;
    intent.canceledAt = now();
    intent.cancellationReason = str(params.cancellation_reason) ?? null;
    return this.show(intent, params, livemode);
  }

  refund(params: Form): Answer {
    const intent = this.intents.get(str(params.payment_intent) ?? '');
    if (!intent) return missing(String(params.payment_intent));
    const charge = intent.chargeId ? this.charges.get(intent.chargeId) : undefined;
    if (!charge || intent.status !== 'succeeded') return unexpected(intent);
    const left = charge.captured - charge.refunded;
    if (left === 0)
      return fail(
        400,
        'invalid_request_error',
        'charge_already_refunded',
        `Charge ${charge.id} has already been refunded.`,
      );
    const amount = params.amount === undefined ? left : Number(params.amount);
    if (amount > left || amount <= 0) {
      return fail(
        400,
        'invalid_request_error',
        'amount_too_large',
        'Refund amount is greater than unrefunded amount on charge.',
        { param: 'amount' },
      );
    }
    charge.refunded += amount;
    const refund: RefundState = {
      id: id('re'),
      chargeId: charge.id,
      intentId: intent.id,
      amount,
      currency: charge.currency,
      status: 'succeeded',
      reason: str(params.reason) ?? null,
      metadata: (params.metadata as Record<string, string> | undefined) ?? {},
      created: now(),
    };
    this.refunds.push(refund);
    return { status: 200, body: refundObject(refund) };
  }

  retrieve(intentId: string, params: Form, livemode: boolean): Answer {
    const intent = this.intents.get(intentId);
    return intent ? this.show(intent, params, livemode) : missing(intentId);
  }

  list(params: Form, livemode: boolean): Answer {
    const limit = params.limit === undefined ? 10 : Number(params.limit);
    const all = [...this.intents.values()].reverse();
    const data = all.slice(0, limit).map((i) => this.render(i, wants(params, 'data.latest_charge'), livemode));
    return { status: 200, body: { object: 'list', data, has_more: all.length > limit, url: '/v1/payment_intents' } };
  }

  /** Search: the one query form the connector uses, `metadata['reference']:'…'`. */
  search(params: Form, livemode: boolean): Answer {
    const match = /^metadata\['reference'\]:'((?:[^'\\]|\\.)*)'$/.exec(String(params.query));
    if (!match)
      return fail(
        400,
        'invalid_request_error',
        'parameter_invalid_string',
        'The double searches by metadata reference only.',
      );
    const reference = match[1].replace(/\\(.)/g, '$1');
    const data = [...this.intents.values()]
      .filter((i) => i.metadata.reference === reference)
      .map((i) => this.render(i, wants(params, 'data.latest_charge'), livemode));
    const body = { object: 'search_result', data, has_more: false, next_page: null, url: '/v1/payment_intents/search' };
    return { status: 200, body };
  }

  eventSources(intentId: string): EventSources {
    const intent = this.intents.get(intentId);
    if (!intent) throw new Error(`The double knows no PaymentIntent ${intentId}`);
    const charge = intent.chargeId ? this.charges.get(intent.chargeId) : undefined;
    const method = intent.paymentMethod ? this.methods.get(intent.paymentMethod) : undefined;
    return { intent, charge, method, refunds: this.refunds.filter((r) => r.intentId === intentId), livemode: false };
  }

  private approve(intent: IntentState, flow: 'frictionless' | 'challenge' | null): void {
    const charge = this.newCharge(intent, true);
    charge.authorizationCode = String(randomInt(100000, 999999));
    charge.networkTransactionId = String(randomInt(1e14, 2.8e14));
    charge.threeDs = flow ? { flow, result: 'authenticated' } : null;
    if (intent.captureMethod === 'automatic') charge.captured = intent.amount;
    intent.status = intent.captureMethod === 'automatic' ? 'succeeded' : 'requires_capture';
    intent.lastError = null;
  }

  private decline(
    intent: IntentState,
    method: CardMethod,
    decline: { declineCode?: string; code: string },
    params: Form,
    livemode: boolean,
  ): Answer {
    const charge = this.newCharge(intent, false);
    const message = `Your card was declined (${decline.declineCode ?? decline.code}).`;
    charge.failureCode = decline.code;
    charge.failureMessage = message;
    intent.status = 'requires_payment_method';
    intent.lastError = {
      type: 'card_error',
      code: decline.code,
      ...(decline.declineCode ? { decline_code: decline.declineCode } : {}),
      message,
      charge: charge.id,
    };
    const shown = this.show(intent, params, livemode).body;
    return fail(402, 'card_error', decline.code, message, {
      ...(decline.declineCode ? { decline_code: decline.declineCode } : {}),
      charge: charge.id,
      payment_intent: shown,
      payment_method: paymentMethodObject(method, livemode),
    });
  }

  private newCharge(intent: IntentState, succeeded: boolean): ChargeState {
    const charge: ChargeState = {
      id: id('ch'),
      intentId: intent.id,
      amount: intent.amount,
      currency: intent.currency,
      captured: 0,
      refunded: 0,
      succeeded,
      failureCode: null,
      failureMessage: null,
      authorizationCode: null,
      networkTransactionId: null,
      threeDs: null,
      created: now(),
    };
    this.charges.set(charge.id, charge);
    intent.chargeId = charge.id;
    return charge;
  }

  private show(intent: IntentState, params: Form, livemode: boolean): Answer {
    return { status: 200, body: this.render(intent, wants(params, 'latest_charge'), livemode) };
  }

  private render(intent: IntentState, expand: boolean, livemode: boolean): Record<string, unknown> {
    const charge = intent.chargeId ? this.charges.get(intent.chargeId) : undefined;
    const method = intent.paymentMethod ? this.methods.get(intent.paymentMethod) : undefined;
    const latest = charge ? (expand ? chargeObject(charge, method, livemode) : charge.id) : null;
    return intentObject(intent, latest, livemode);
  }
}

const missing = (what: string): Answer =>
  fail(404, 'invalid_request_error', 'resource_missing', `No such payment_intent: '${what}'`, { param: 'intent' });
const unexpected = (intent: IntentState): Answer =>
  fail(
    400,
    'invalid_request_error',
    'payment_intent_unexpected_state',
    `This PaymentIntent's status is ${intent.status}.`,
  );
