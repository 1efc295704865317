import { Clock, ClockScope } from '@app/clock';
import { CallerContext, CheckoutResult, PaymentResponse, ResumeLinkCommand } from '@app/contracts';
import { DomainError } from '@app/errors';
import { UseCase } from '@app/idempotency';
import { CheckoutLinks, resultOf, returnUrl } from './checkout-links';
import { LinkUseLedger, outcomeOf } from './link-use.ledger';
import { PaymentsClient } from './payments.client';

@UseCase({ operation: 'link.resume', idempotency: 'none' })
export class ResumeLinkUseCase {
  constructor(
    private readonly links: CheckoutLinks,
    private readonly ledger: LinkUseLedger,
    private readonly payments: PaymentsClient,
    private readonly clock: Clock,
  ) {}

  /**
   * Finishes a link payment after its 3DS challenge: only a session this link started is taken. Payments'
   * final answer settles the use; when resume refuses (an expired session, say), the payment as payments
   * now has it decides, so a use never stays reserved for a payment that ended.
   */
  async run({ requestId }: CallerContext, command: ResumeLinkCommand): Promise<CheckoutResult> {
    const { link, scope } = await this.links.found(command.linkId);
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
}
