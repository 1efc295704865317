import { AmountMode, CheckoutPlanView, CreatePaymentLinkRequest, LinkPlanAnswer, LinkType } from '@app/contracts';
import { DomainError } from '@app/errors';
import { Amount, assertCurrency } from '@app/money';

/** A single-use link expires 24 hours after creation unless it says otherwise. */
export const SINGLE_USE_TTL_MS = 24 * 60 * 60 * 1000;

/** The terms of a new link after its defaults and rules (see `linkTerms`). */
export interface LinkTerms {
  type: LinkType;
  amountMode: AmountMode;
  currency: string | null;
  exponent: number | null;
  amountValue: number | null;
  amountMin: number | null;
  amountMax: number | null;
  subscriptionPlanId: number | null;
  plan: CheckoutPlanView | null;
  reusable: boolean;
  maxUses: number | null;
  expiresAt: Date | null;
}

const blank = (v: string | undefined): string | null => (v === undefined || v === '' ? null : v);

/** Free-text fields: an empty string means "none", as if left out. */
export function freeText(r: CreatePaymentLinkRequest) {
  return {
    title: blank(r.title),
    description: blank(r.description),
    reference: blank(r.reference),
    customerEmail: blank(r.customerEmail),
    customerName: blank(r.customerName),
    returnUrl: blank(r.returnUrl),
  };
}

/**
 * Applies the defaults (`type` one-time, `amountMode` fixed, not reusable, 24 h expiry for single-use links)
 * and refuses what the rules forbid: 400 VALIDATION_FAILED naming the field, 422 INVALID_EXPONENT for an
 * exponent that is not the currency's. `plan` is billing's answer for a subscription link (already checked
 * to be active and the caller's).
 */
export function linkTerms(r: CreatePaymentLinkRequest, now: Date, plan?: LinkPlanAnswer): LinkTerms {
  const type = r.type ?? 'one-time';
  const amountMode = r.amountMode ?? 'fixed';
  const reusable = r.reusable ?? false;
  const expiresAt = expiryOf(r, now, reusable);
  const maxUses = usesOf(r, reusable);
  const base = { type, amountMode, reusable, maxUses, expiresAt };

  if (type === 'subscription') {
    if (r.subscriptionPlanId === undefined) throw required('subscriptionPlanId', 'on a subscription link');
    if (r.amountMode === 'customer_entered') {
      throw DomainError.validation('A subscription link charges its plan’s amount', 'amountMode');
    }
    if (r.amount !== undefined) throw DomainError.validation('A subscription link has no amount', 'amount');
    if (r.amountMin !== undefined || r.amountMax !== undefined) {
      throw DomainError.validation('A subscription link has no amount bounds', 'amountMin');
    }
    if (!plan) throw new Error('linkTerms: a subscription link needs its plan');
    return {
      ...base,
      amountMode: 'fixed',
      currency: null,
      exponent: null,
      amountValue: null,
      amountMin: null,
      amountMax: null,
      subscriptionPlanId: plan.id,
      plan: {
        name: plan.name,
        amount: { currency: plan.currency, value: plan.amount, exponent: plan.exponent },
        interval: plan.interval,
        intervalCount: plan.intervalCount,
        ...(plan.trialPeriodDays ? { trialPeriodDays: plan.trialPeriodDays } : {}),
      },
    };
  }
  if (r.subscriptionPlanId !== undefined) {
    throw DomainError.validation('subscriptionPlanId is only for type subscription', 'subscriptionPlanId');
  }
  if (!r.amount) throw required('amount');
  const exponent = checkedExponent(r.amount.currency, r.amount.exponent);
  const shared = { ...base, currency: r.amount.currency, exponent, subscriptionPlanId: null, plan: null };

  if (amountMode === 'fixed') {
    if (r.amount.value === undefined) throw required('amount.value', 'on a fixed link');
    if (r.amountMin !== undefined || r.amountMax !== undefined) {
      throw DomainError.validation('amountMin and amountMax are for customer_entered links', 'amountMin');
    }
    Amount.of({ currency: r.amount.currency, value: r.amount.value, exponent });
    return { ...shared, amountValue: r.amount.value, amountMin: null, amountMax: null };
  }
  if (r.amount.value !== undefined) {
    throw DomainError.validation('A customer_entered link has no amount.value: the payer enters it', 'amount.value');
  }
  if (r.amountMin === undefined) throw required('amountMin', 'on a customer_entered link');
  if (r.amountMax === undefined) throw required('amountMax', 'on a customer_entered link');
  if (r.amountMin > r.amountMax) throw DomainError.validation('amountMin must not exceed amountMax', 'amountMin');
  return { ...shared, amountValue: null, amountMin: r.amountMin, amountMax: r.amountMax };
}

function expiryOf(r: CreatePaymentLinkRequest, now: Date, reusable: boolean): Date | null {
  if (r.expiresAt === undefined) return reusable ? null : new Date(now.getTime() + SINGLE_USE_TTL_MS);
  const at = new Date(r.expiresAt);
  if (Number.isNaN(at.getTime()) || at.getTime() <= now.getTime()) {
    throw DomainError.validation('expiresAt must be a future time', 'expiresAt');
  }
  return at;
}

function usesOf(r: CreatePaymentLinkRequest, reusable: boolean): number | null {
  if (reusable) return r.maxUses ?? null;
  if (r.maxUses !== undefined && r.maxUses !== 1) {
    throw DomainError.validation('maxUses above 1 needs reusable: true', 'maxUses');
  }
  return 1;
}

/** 400 for an unknown currency, 422 INVALID_EXPONENT for an exponent that is not its ISO 4217 one. */
export function checkedExponent(currency: string, exponent: number, param = 'amount'): number {
  const iso = assertCurrency(currency, `${param}.currency`);
  if (exponent !== iso) {
    throw new DomainError('INVALID_EXPONENT', `${currency} has exponent ${iso}, got ${exponent}`, `${param}.exponent`);
  }
  return iso;
}

const required = (param: string, where = ''): DomainError =>
  DomainError.validation(`${param} is required${where ? ` ${where}` : ''}`, param);

/** Billing's plan must be active and not archived to take new subscribers through a link. */
export function assertPlanOpen(plan: LinkPlanAnswer): void {
  if (!plan.isActive || plan.archivedAt) {
    throw new DomainError(
      'INVALID_STATE',
      `Plan ${plan.id} is ${plan.archivedAt ? 'archived' : 'inactive'}: it takes no new subscribers`,
      'subscriptionPlanId',
    );
  }
}
