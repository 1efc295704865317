import { Injectable } from '@nestjs/common';
import { Clock, ClockScope, SandboxClockCopy } from '@app/clock';
import { CheckoutResult, CheckoutView, PaymentResponse } from '@app/contracts';
import { LinkExpiry } from '../link/link-expiry.service';
import { PaymentLinkEntity } from '../link/payment-link.entity';
import { PaymentLinkRepository } from '../link/payment-link.repository';
import { toCheckoutView } from '../link/payment-link.view';
import { UseOutcome } from './link-use.ledger';

/** A link of the keyless checkout and the scope it runs in: the link's merchant, environment and sandbox clock. */
export interface CheckoutLink {
  link: PaymentLinkEntity;
  scope: ClockScope & { merchantId?: number };
}

/**
 * The keyless checkout paths (the link id is the credential): the link found by its id, and what the hosted
 * page shows. The link's merchant, environment and sandbox clock come from the link, never from the caller.
 */
@Injectable()
export class CheckoutLinks {
  constructor(
    private readonly links: PaymentLinkRepository,
    private readonly clocks: SandboxClockCopy,
    private readonly expiry: LinkExpiry,
    private readonly clock: Clock,
  ) {}

  async view(id: string): Promise<CheckoutView> {
    const { link, scope } = await this.found(id);
    return toCheckoutView(await this.expiry.current(link, this.clock.now(scope)));
  }

  async found(id: string): Promise<CheckoutLink> {
    const link = await this.links.getKeyless(id);
    const scope = await this.clocks.clockScopeOf(link);
    return { link, scope: link.merchantId === null ? scope : { ...scope, merchantId: link.merchantId } };
  }
}

export function resultOf(outcome: UseOutcome, payment?: PaymentResponse): CheckoutResult['outcome'] {
  if (outcome.kind === 'paid') return 'succeeded';
  if (outcome.kind === 'pending') return 'requires_action';
  return payment?.status === 'declined' ? 'declined' : 'failed';
}

export const returnUrl = (link: PaymentLinkEntity, outcome: UseOutcome): Pick<CheckoutResult, 'returnUrl'> =>
  outcome.kind === 'paid' && link.returnUrl ? { returnUrl: link.returnUrl } : {};
