/**
 * What the payment-links service reads of billing's answers (BillingSubjects.getPlan and createSubscription).
 * Only the fields a link needs; billing owns the full Plan and Subscription shapes.
 */
export interface LinkPlanAnswer {
  id: number;
  isActive: boolean;
  archivedAt?: string | null;
  currency: string;
  amount: number;
  exponent: number;
  name: string;
  interval: string;
  intervalCount: number;
  trialPeriodDays?: number | null;
}

/** The body payment-links sends to BillingSubjects.createSubscription (the POST /v1/subscription body, CIT mode). */
export interface LinkSubscriptionBody {
  planId: number;
  customerEmail: string;
  customerName?: string;
  card: { nonceData: { nonce: string } };
  metadata?: Record<string, string>;
}

export interface LinkSubscriptionAnswer {
  id: string;
  status: string;
}
