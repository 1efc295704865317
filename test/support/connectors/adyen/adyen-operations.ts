import { randomBytes } from 'node:crypto';
import {
  authorisedBody,
  decideCard,
  pspReference,
  refusedBody,
  serviceError,
  type AdyenAmount,
  type Answer,
  type DoublePayment,
  type NotificationItem,
} from './adyen-ledger';

type Body = Record<string, unknown>;

/** What the double's Adyen does with a valid request: payments, 3DS, captures, refunds, cancels. */
export class AdyenOperations {
  private readonly payments = new Map<string, DoublePayment>();
  private readonly charges = new Map<string, number>();
  /** Open challenges by the token in the 3DS page's URL. */
  private readonly challenges = new Map<string, { pspReference: string; returnUrl: string }>();
  /** What the 3DS page gave the shopper back, by `redirectResult`. */
  private readonly redirectResults = new Map<string, { pspReference: string; authenticated: boolean }>();
  private readonly refusals = new Map<string, string>();

  constructor(private readonly origin: () => string) {}

  payment(reference: string): DoublePayment | undefined {
    return this.payments.get(reference);
  }

  /** The payment taken for our request reference (Adyen's merchant reference), if any. */
  paymentFor(reference: string): DoublePayment | undefined {
    return [...this.payments.values()].find((p) => p.reference === reference);
  }

  chargesFor(reference: string): number {
    return this.charges.get(reference) ?? 0;
  }

  challengeUrl(psp: string): string | undefined {
    const token = [...this.challenges.entries()].find(([, c]) => c.pspReference === psp)?.[0];
    return token ? `${this.origin()}/3ds/${token}` : undefined;
  }

  /** The shopper at the 3DS page: where the browser goes next (the return URL with `redirectResult`). */
  shopperAtChallenge(token: string, authenticated: boolean): string | undefined {
    const challenge = this.challenges.get(token);
    if (!challenge) return undefined;
    this.challenges.delete(token);
    const redirectResult = randomBytes(24).toString('base64url');
    this.redirectResults.set(redirectResult, { pspReference: challenge.pspReference, authenticated });
    const back = new URL(challenge.returnUrl);
    back.searchParams.set('redirectResult', redirectResult);
    return back.toString();
  }

  act(requestPath: string, path: string, body: Body, live: boolean): Answer {
    if (path === '/payments') return this.pay(body, live);
    if (path === '/payments/details') return this.details(body);
    const psp = requestPath.split('/')[3];
    const payment = this.payments.get(psp);
    if (!payment || payment.live !== live || payment.status !== 'authorised') {
      return serviceError(422, '167', 'Original pspReference required for this operation', 'validation');
    }
    if (path.endsWith('/captures')) return this.capture(payment, body);
    if (path.endsWith('/refunds')) return this.refund(payment, body);
    if (path.endsWith('/cancels')) return this.cancel(payment, body);
    return payment.captured > 0
      ? this.refund(payment, { ...body, amount: { currency: payment.amount.currency, value: payment.captured } })
      : this.cancel(payment, body);
  }

  private pay(body: Body, live: boolean): Answer {
    const card = body.paymentMethod as { type?: string; number?: string; holderName?: string };
    if (card.type !== 'scheme' || !card.number) {
      return serviceError(422, '14_030', 'This double takes scheme cards only', 'validation');
    }
    const reference = String(body.reference);
    const additional = (body.additionalData ?? {}) as Record<string, string>;
    const payment: DoublePayment = {
      pspReference: pspReference(),
      reference,
      merchantAccount: String(body.merchantAccount),
      live,
      amount: body.amount as AdyenAmount,
      status: 'refused',
      captured: 0,
      refunded: 0,
      manualCapture: additional.manualCapture === 'true',
      shopperInteraction: String(body.shopperInteraction ?? 'Ecommerce'),
      modifications: [],
    };
    this.payments.set(payment.pspReference, payment);
    const decision = decideCard(card, body);
    switch (decision.kind) {
      case 'refuse':
        this.refusals.set(payment.pspReference, decision.code);
        return { status: 200, body: refusedBody(payment, decision.code, decision.raw) };
      case 'challenge': {
        payment.status = 'pending_3ds';
        const token = randomBytes(12).toString('hex');
        this.challenges.set(token, { pspReference: payment.pspReference, returnUrl: String(body.returnUrl) });
        return {
          status: 200,
          body: {
            pspReference: payment.pspReference,
            resultCode: 'RedirectShopper',
            merchantReference: reference,
            action: {
              type: 'redirect',
              method: 'GET',
              url: `${this.origin()}/3ds/${token}`,
              paymentMethodType: 'scheme',
            },
          },
        };
      }
      case 'authorise':
        return { status: 200, body: this.authorise(payment, decision.threeDs) };
    }
  }

  /** The charge is taken: the card's money is held (and captured at once for a purchase). */
  private authorise(payment: DoublePayment, threeDs?: 'frictionless' | 'challenge'): Body {
    payment.status = 'authorised';
    if (!payment.manualCapture) payment.captured = payment.amount.value;
    this.charges.set(payment.reference, this.chargesFor(payment.reference) + 1);
    return authorisedBody(payment, threeDs);
  }

  private details(body: Body): Answer {
    const details = body.details as { redirectResult?: string };
    const result = details.redirectResult ? this.redirectResults.get(details.redirectResult) : undefined;
    const payment = result ? this.payments.get(result.pspReference) : undefined;
    if (!result || !payment || payment.status !== 'pending_3ds') {
      return serviceError(422, '14_0001', 'Invalid redirectResult', 'validation');
    }
    this.redirectResults.delete(details.redirectResult!);
    if (!result.authenticated) {
      payment.status = 'refused';
      this.refusals.set(payment.pspReference, '11');
      return { status: 200, body: refusedBody(payment, '11') };
    }
    return { status: 200, body: this.authorise(payment, 'challenge') };
  }

  private capture(payment: DoublePayment, body: Body): Answer {
    const amount = body.amount as AdyenAmount;
    if (!payment.manualCapture || amount.currency !== payment.amount.currency) {
      return serviceError(422, '137', 'Invalid amount specified', 'validation');
    }
    if (payment.captured + amount.value > payment.amount.value) {
      return serviceError(422, '137', 'Invalid amount specified', 'validation');
    }
    payment.captured += amount.value;
    return this.received(payment, 'capture', body, amount);
  }

  private refund(payment: DoublePayment, body: Body): Answer {
    const amount = body.amount as AdyenAmount;
    if (amount.currency !== payment.amount.currency || payment.refunded + amount.value > payment.captured) {
      return serviceError(422, '137', 'Invalid amount specified', 'validation');
    }
    payment.refunded += amount.value;
    return this.received(payment, 'refund', body, amount);
  }

  private cancel(payment: DoublePayment, body: Body): Answer {
    if (payment.captured > 0) return serviceError(422, '167', 'The payment is captured', 'validation');
    payment.status = 'cancelled';
    return this.received(payment, 'cancel', body);
  }

  private received(
    payment: DoublePayment,
    kind: 'capture' | 'refund' | 'cancel',
    body: Body,
    amount?: AdyenAmount,
  ): Answer {
    const modification = { kind, pspReference: pspReference(), ...(amount ? { amount } : {}) };
    payment.modifications.push(modification);
    return {
      status: 201,
      body: {
        merchantAccount: payment.merchantAccount,
        paymentPspReference: payment.pspReference,
        pspReference: modification.pspReference,
        ...(body.reference ? { reference: body.reference } : {}),
        status: 'received',
        ...(amount ? { amount } : {}),
      },
    };
  }

  /** The NotificationRequestItem (unsigned) Adyen would send for an event about a payment the double knows. */
  notificationItem(
    eventCode: string,
    psp: string,
    options: { success?: boolean; amountValue?: number; modificationReference?: string },
  ): NotificationItem {
    const payment = this.payments.get(psp);
    if (!payment) throw new Error(`The double knows no payment ${psp}`);
    const isPayment = eventCode === 'AUTHORISATION';
    const kind = eventCode.startsWith('CAPTURE') ? 'capture' : eventCode.startsWith('REFUND') ? 'refund' : 'cancel';
    const modification = options.modificationReference
      ? payment.modifications.find((m) => m.pspReference === options.modificationReference)
      : [...payment.modifications].reverse().find((m) => m.kind === kind);
    const success = options.success ?? (isPayment ? payment.status === 'authorised' : true);
    const refusal = this.refusals.get(psp);
    return {
      amount: {
        currency: payment.amount.currency,
        value: options.amountValue ?? modification?.amount?.value ?? payment.amount.value,
      },
      eventCode,
      eventDate: new Date().toISOString().replace(/\.\d{3}Z$/, '+00:00'),
      merchantAccountCode: payment.merchantAccount,
      merchantReference: payment.reference,
      ...(isPayment ? {} : { originalReference: payment.pspReference }),
      paymentMethod: 'visa',
      pspReference: isPayment
        ? payment.pspReference
        : (options.modificationReference ?? modification?.pspReference ?? pspReference()),
      reason: success ? '' : isPayment && refusal ? (refusedBody(payment, refusal).refusalReason as string) : 'Failed',
      success: success ? 'true' : 'false',
    };
  }
}
