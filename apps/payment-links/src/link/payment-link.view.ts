import { CheckoutView, PaymentLinkResponse } from '@app/contracts';
import { PaymentLinkEntity } from './payment-link.entity';

export const checkoutUrl = (baseUrl: string, id: string): string => `${baseUrl.replace(/\/+$/, '')}/checkout/${id}`;

const opt = <K extends string, V>(key: K, value: V | null | undefined): Partial<Record<K, V>> =>
  value === null || value === undefined ? {} : ({ [key]: value } as Record<K, V>);

function amountOf(link: PaymentLinkEntity): PaymentLinkResponse['amount'] {
  if (link.currency === null || link.exponent === null) return undefined;
  return { currency: link.currency, ...opt('value', link.amountValue), exponent: link.exponent };
}

/** A payment link as the API answers it (and as `data` of its events). */
export function toLinkResponse(link: PaymentLinkEntity, baseUrl: string): PaymentLinkResponse {
  return {
    id: link.id,
    url: checkoutUrl(baseUrl, link.id),
    type: link.type,
    status: link.status,
    amountMode: link.amountMode,
    ...opt('amount', amountOf(link)),
    ...opt('amountMin', link.amountMin),
    ...opt('amountMax', link.amountMax),
    ...opt('subscriptionPlanId', link.subscriptionPlanId),
    ...opt('checkoutConfigId', link.checkoutConfigId),
    ...opt('title', link.title),
    ...opt('description', link.description),
    ...opt('reference', link.reference),
    ...opt('customerEmail', link.customerEmail),
    ...opt('customerName', link.customerName),
    ...opt('returnUrl', link.returnUrl),
    saveCardEnabled: link.saveCardEnabled,
    reusable: link.reusable,
    ...opt('maxUses', link.maxUses),
    usesCount: link.usesCount,
    environment: link.environment,
    merchantCode: link.merchantCode,
    metadata: link.metadata,
    ...opt('expiresAt', link.expiresAt?.toISOString()),
    ...opt('usedAt', link.usedAt?.toISOString()),
    createdAt: link.createdAt.toISOString(),
  };
}

/** What the hosted checkout page may show: no reference, metadata or counters. */
export function toCheckoutView(link: PaymentLinkEntity): CheckoutView {
  return {
    id: link.id,
    status: link.status,
    type: link.type,
    amountMode: link.amountMode,
    environment: link.environment,
    merchantCode: link.merchantCode,
    ...opt('amount', amountOf(link)),
    ...opt('amountMin', link.amountMin),
    ...opt('amountMax', link.amountMax),
    ...opt('title', link.title),
    ...opt('description', link.description),
    ...opt('customerEmail', link.customerEmail),
    ...opt('customerName', link.customerName),
    ...opt('returnUrl', link.returnUrl),
    ...opt('plan', link.plan),
    ...opt('expiresAt', link.expiresAt?.toISOString()),
  };
}
