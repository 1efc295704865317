import { Injectable } from '@nestjs/common';
import { Clock, ClockScope, SandboxClockCopy } from '@app/clock';
import {
  CallerContext,
  CheckoutResult,
  CheckoutView,
  LINK_PAYMENT_METADATA,
  PayLinkCommand,
  PaymentResponse,
  ResumeLinkCommand,
} from '@app/contracts';
import { DomainError } from '@app/errors';
import { LinkExpiry } from '../link/link-expiry.service';
import { BillingClient } from '../link/billing.client';
import { PaymentLinkEntity } from '../link/payment-link.entity';
import { PaymentLinkRepository } from '../link/payment-link.repository';
import { toCheckoutView } from '../link/payment-link.view';
import { LinkUseLedger, orderCodeOf, outcomeOf, Reservation, UseOutcome } from './link-use.ledger';
import { subscriberOf } from './pay-terms';
import { PaymentsClient } from './payments.client';

/**
 * The keyless checkout paths (the link id is the credential): what the hosted page shows, paying
 * a link with an SDK nonce through payments (or enrolling through billing), and finishing a 3DS payment. The
 * link's merchant, environment and sandbox clock come from the link, never from the caller.
 */
@Injectable()
export class CheckoutService {
  constructor(
    private readonly links: PaymentLinkRepository,
    private readonly ledger: LinkUseLedger,
    private readonly expiry: LinkExpiry,
    private readonly payments: PaymentsClient,
    private readonly billing: BillingClient,
    private readonly clocks: SandboxClockCopy,
    private readonly clock: Clock,
  ) {}

  async view(id: string): Promise<CheckoutView> {
    const { link, scope } = await this.found(id);
    return toCheckoutView(await this.expiry.current(link, this.clock.now(scope)));
  }

  async pay(requestId: string, command: PayLinkCommand): Promise<CheckoutResult> {
    const { link, scope } = await this.found(command.linkId);
    const reservation = await this.ledger.reserve(link.id, command, this.clock.now(scope));
    // The use's id makes the downstream call safe to retry: it is the Idempotency-Key payments and billing see.
    const ctx: CallerContext = { ...scope, requestId, idempotencyKey: `link-use-${reservation.use.id}` };
    let outcome: UseOutcome;
    let answer: Pick<CheckoutResult, 'payment' | 'subscription'>;
    try {
      if (link.type === 'subscription') {
        const subscription = await this.subscribe(ctx, reservation, command);
        answer = { subscription: { id: subscription.id, status: subscription.status } };
        outcome = { kind: 'paid', subscriptionId: subscription.id };
      } else {
        const payment = await this.payments.purchase(ctx, this.purchaseOf(reservation, command));
        answer = { payment };
        outcome = outcomeOf(payment);
      }
    } catch (e) {
      // A refusal means nothing was paid. After a timeout (or an unexpected error) nobody knows yet: the
      // reservation holds its place until it lapses and LinkUseReconcileLoop asks payments what became of it.
      if (e instanceof DomainError && e.code !== 'UPSTREAM_TIMEOUT') {
        await this.ledger.settle(reservation.use.id, { kind: 'failed' }, this.clock.now(scope));
      }
      throw e;
    }
    const after = await this.ledger.settle(reservation.use.id, outcome, this.clock.now(scope));
    return { outcome: resultOf(outcome, answer.payment), link: after, ...answer, ...returnUrl(link, outcome) };
  }

  /**
   * Finishes a link payment after its 3DS challenge: only a session this link started is taken. Payments'
   * final answer settles the use; when resume refuses (an expired session, say), the payment as payments
   * now has it decides, so a use never stays reserved for a payment that ended.
   */
  async resume(requestId: string, command: ResumeLinkCommand): Promise<CheckoutResult> {
    const { link, scope } = await this.found(command.linkId);
    const use = await this.ledger.pendingBySession(link.id, command.sessionId);
    let payment: PaymentResponse;
    try {
      payment = await this.payments.resume(requestId, command.sessionId);
    } catch (e) {
      if (e instanceof DomainError && e.code !== 'CHALLENGE_NOT_COMPLETED') {
        await this.settleFromPayments(scope, requestId, use.id, use.paymentId!);
      }
      throw e;
    }
    const outcome = outcomeOf(payment);
    const after = await this.ledger.settle(use.id, outcome, this.clock.now(scope));
    return { outcome: resultOf(outcome, payment), link: after, payment, ...returnUrl(link, outcome) };
  }

  /** The payment as payments has it now decides the use; if payments cannot say, the reconciler will. */
  private async settleFromPayments(scope: ClockScope, requestId: string, useId: string, paymentId: string) {
    try {
      const outcome = outcomeOf(await this.payments.get({ ...scope, requestId }, paymentId));
      if (outcome.kind !== 'pending') await this.ledger.settle(useId, outcome, this.clock.now(scope));
    } catch {
      // Left reserved: LinkUseReconcileLoop settles it once the reservation lapses.
    }
  }

  private async found(id: string): Promise<{ link: PaymentLinkEntity; scope: ClockScope & { merchantId?: number } }> {
    const link = await this.links.getKeyless(id);
    const scope = await this.clocks.clockScopeOf(link);
    return { link, scope: link.merchantId === null ? scope : { ...scope, merchantId: link.merchantId } };
  }

  private purchaseOf(r: Reservation, command: PayLinkCommand) {
    const { link } = r;
    return {
      merchantCode: link.merchantCode,
      orderCode: orderCodeOf(r.use.id),
      amount: { currency: link.currency!, value: r.amountValue!, exponent: link.exponent! },
      card: {
        nonceData: { nonce: command.nonce, ...(command.customerName ? { cardholderName: command.customerName } : {}) },
      },
      metadata: {
        [LINK_PAYMENT_METADATA]: link.id,
        ...(link.reference ? { paymentLinkReference: link.reference } : {}),
      },
    };
  }

  private subscribe(ctx: CallerContext, r: Reservation, command: PayLinkCommand) {
    const payer = subscriberOf(r.link, command);
    return this.billing.subscribe(ctx, {
      planId: r.link.subscriptionPlanId!,
      customerEmail: payer.email,
      ...(payer.name ? { customerName: payer.name } : {}),
      card: { nonceData: { nonce: command.nonce } },
      metadata: { paymentLinkId: r.link.id },
    });
  }
}

function resultOf(outcome: UseOutcome, payment?: PaymentResponse): CheckoutResult['outcome'] {
  if (outcome.kind === 'paid') return 'succeeded';
  if (outcome.kind === 'pending') return 'requires_action';
  return payment?.status === 'declined' ? 'declined' : 'failed';
}

const returnUrl = (link: PaymentLinkEntity, outcome: UseOutcome): Pick<CheckoutResult, 'returnUrl'> =>
  outcome.kind === 'paid' && link.returnUrl ? { returnUrl: link.returnUrl } : {};
