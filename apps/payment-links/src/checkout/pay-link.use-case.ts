import { Clock } from '@app/clock';
import { CallerContext, CheckoutResult, LINK_PAYMENT_METADATA, PayLinkCommand } from '@app/contracts';
import { DomainError } from '@app/errors';
import { UseCase } from '@app/idempotency';
import { BillingClient } from '../link/billing.client';
import { CheckoutLinks, resultOf, returnUrl } from './checkout-links';
import { LinkUseLedger, orderCodeOf, outcomeOf, Reservation, UseOutcome } from './link-use.ledger';
import { subscriberOf } from './pay-terms';
import { PaymentsClient } from './payments.client';

/**
 * Pays a link with an SDK nonce through payments (or enrols through billing): keyless, the link id is the
 * credential; the link's use (reserved first) is the Idempotency-Key payments and billing see.
 */
@UseCase({ operation: 'link.pay', idempotency: 'none' })
export class PayLinkUseCase {
  constructor(
    private readonly links: CheckoutLinks,
    private readonly ledger: LinkUseLedger,
    private readonly payments: PaymentsClient,
    private readonly billing: BillingClient,
    private readonly clock: Clock,
  ) {}

  async run({ requestId }: CallerContext, command: PayLinkCommand): Promise<CheckoutResult> {
    const { link, scope } = await this.links.found(command.linkId);
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
