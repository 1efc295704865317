import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '@app/clock';
import {
  BillingSubjects,
  CallerContext,
  EventEnvelope,
  EventTypes,
  InvoiceView,
  SubscriptionView,
} from '@app/contracts';
import { DomainError } from '@app/errors';
import { RpcClient } from '@app/messaging';
import { CHECKOUT_PAGE_OPTIONS, CheckoutPageOptions } from '../hosted/page-headers';
import { formatMoney } from '../hosted/html';
import { Mailer } from '../mail/mailer';
import { cardUpdateMail } from '../mail/mail-templates';
import { CARD_UPDATE_LINK_TTL_MS, cardUpdateUrl } from './card-update-links';
import { CardUpdateLinks } from './card-update-links.repository';

/** A past-due subscription whose decline needs another card: a retry of the same card cannot help. */
export function needsNewCard(s: Pick<SubscriptionView, 'status' | 'dunning'>): boolean {
  if (s.status !== 'past_due' || !s.dunning) return false;
  return s.dunning.waitingFor === 'payment_method' || s.dunning.lastRefusal?.recoveryAction === 'switch_method';
}

/**
 * Emails the customer (the subscription's customerEmail) a card-update link when the merchant turned the
 * emails on: on `subscription.past_due` for a decline that needs a new card, and on `payment_method.expiring`.
 * The link is made for the event (one per event id), then the mail sent and recorded in mail_sends.
 */
@Injectable()
export class CardUpdateMail {
  constructor(
    private readonly links: CardUpdateLinks,
    private readonly mailer: Mailer,
    private readonly rpc: RpcClient,
    private readonly clock: Clock,
    @Inject(CHECKOUT_PAGE_OPTIONS) private readonly options: CheckoutPageOptions,
  ) {}

  async onEvent(event: EventEnvelope): Promise<void> {
    if (!(await this.links.emailsOn(event.merchantCode))) return;
    const subscriptionId = this.subscriptionOf(event);
    if (!subscriptionId) return;
    const ctx: CallerContext = {
      requestId: `event:${event.id}`,
      merchantCode: event.merchantCode,
      environment: event.environment,
    };
    const subscription = await this.rpc
      .send<SubscriptionView>(BillingSubjects.getSubscription, ctx, { id: subscriptionId })
      .catch((e: unknown) => {
        if (e instanceof DomainError && e.code === 'NOT_FOUND') return null;
        throw e;
      });
    if (!subscription || !['past_due', 'suspended', 'active', 'trialing'].includes(subscription.status)) return;
    if (event.type === EventTypes.subscriptionPastDue && !needsNewCard(subscription)) return;
    const made = await this.links.create(
      { ...ctx, merchantId: subscription.merchantId ?? undefined },
      subscription.id,
      this.clock.now(),
      event.id,
    );
    if (!made) return;
    const invoices = await this.rpc.send<InvoiceView[]>(BillingSubjects.listInvoices, ctx, { id: subscription.id });
    const open = invoices.find((i) => i.status === 'open');
    const plan = subscription.plan;
    const due = open ?? (plan ? { amount: plan.amount, currency: plan.currency, exponent: plan.exponent } : null);
    await this.mailer.send(
      subscription.customerEmail,
      cardUpdateMail({
        merchantName: event.merchantCode,
        planName: plan?.name ?? 'subscription',
        amountDue: due ? formatMoney({ value: due.amount, currency: due.currency, exponent: due.exponent }) : '-',
        url: cardUpdateUrl(this.options.publicBaseUrl, made.token),
        validForMs: CARD_UPDATE_LINK_TTL_MS,
      }),
    );
  }

  /** The subscription an event is about: past_due carries it, expiring names it as the card's shopper. */
  private subscriptionOf(event: EventEnvelope): string | null {
    const data = event.data as Record<string, unknown>;
    if (event.type === EventTypes.subscriptionPastDue) return typeof data.id === 'string' ? data.id : null;
    // A stored card's shopper is the subscription it was stored for (billing's cards); another is no subscription.
    const id = data.shopperId;
    return typeof id === 'string' ? id : null;
  }
}
