import { randomUUID } from 'node:crypto';
import type { AmountJson } from '@app/money';
import type {
  AuthorizationOutcome,
  AuthorizationRequest,
} from '../../../../apps/payments/src/connector/provider-connector';
import type { ResolvedCard } from '../../../../apps/payments/src/card/instrument';

/** Requests for connector tests: a card authorization of EUR 10.00 unless told otherwise. */
export const EUR = (value: number): AmountJson => ({ currency: 'EUR', value, exponent: 2 });

export const card = (cardNumber: string, extra: Partial<ResolvedCard> = {}): ResolvedCard => ({
  source: 'cardData',
  cardNumber,
  expiryMonth: '3',
  expiryYear: '2030',
  cvv: '737',
  cardholderName: 'Jo Doe',
  brand: 'visa',
  type: 'credit',
  tokenize: false,
  ...extra,
});

export const request = (overrides: Partial<AuthorizationRequest> = {}): AuthorizationRequest => ({
  paymentId: randomUUID(),
  at: new Date(),
  reference: `res_${randomUUID()}`,
  amount: EUR(1000),
  capture: true,
  paymentMethod: 'card',
  card: card('4111111111111111'),
  initiator: 'cardholder',
  returnUrl: 'https://gateway.test/3ds/return?payment=1',
  ...overrides,
});

export function approved(outcome: AuthorizationOutcome): Extract<AuthorizationOutcome, { kind: 'approved' }> {
  if (outcome.kind !== 'approved') throw new Error(`expected approved, got ${JSON.stringify(outcome)}`);
  return outcome;
}
