import type { Environment } from '@app/contracts';

/** One payments call of a renewal, a dunning retry or a forced retry: what tx 1 opened and tx 2 records. */
export interface ChargeAttempt {
  subscriptionId: string;
  merchantCode: string;
  environment: Environment;
  merchantId: number | null;
  invoiceId: string;
  /** 1-based: the invoice's paymentAttemptCount once this attempt is recorded. */
  attempt: number;
  amount: number;
  currency: string;
  exponent: number;
  token: string;
  networkTransactionId: string | null;
  /** The connections that declined the invoice's previous attempt: payments routes to the others first. */
  declinedLast: string[];
  /** The account updater found the card's account closed: a scheduled attempt is not sent (it cannot succeed). */
  cardClosed: boolean;
  email: string;
  name: string | null;
  metadata: Record<string, string>;
  /** The step's instant: its due time (sandbox) or now. Every timestamp of the step reads it. */
  at: Date;
}

/**
 * The payments Idempotency-Key of an attempt: derived from the invoice and the attempt number only, so a
 * crash between the charge and its record, a redelivery, a second replica or a forced retry racing the
 * scheduler all send the same key, and payments answers the first charge instead of making a second one.
 */
export const attemptKey = (a: Pick<ChargeAttempt, 'invoiceId' | 'attempt'>): string =>
  `billing_inv_${a.invoiceId}_${a.attempt}`;
