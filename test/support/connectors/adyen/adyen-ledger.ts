import { createHmac, randomBytes, randomInt } from 'node:crypto';
import { ADYEN_REFUSALS } from '../../../../apps/payments/src/connector/adyen/adyen-refusals';

/** What the double answers: an HTTP status and a JSON body (checked against the document before it is sent). */
export interface Answer {
  status: number;
  body: Record<string, unknown>;
}

export interface AdyenAmount {
  currency: string;
  value: number;
}

/** One payment the double took, as Adyen keeps it. */
export interface DoublePayment {
  pspReference: string;
  reference: string;
  merchantAccount: string;
  live: boolean;
  amount: AdyenAmount;
  status: 'authorised' | 'refused' | 'pending_3ds' | 'cancelled';
  captured: number;
  refunded: number;
  manualCapture: boolean;
  networkTxReference?: string;
  shopperInteraction: string;
  modifications: { kind: 'capture' | 'refund' | 'cancel'; pspReference: string; amount?: AdyenAmount }[];
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
export const pspReference = (): string =>
  Array.from({ length: 16 }, () => ALPHANUMERIC[randomInt(ALPHANUMERIC.length)]).join('');
const digits = (n: number): string => Array.from({ length: n }, () => String(randomInt(10))).join('');

/** Adyen's answer code for a refusal row: the holder name `REFUSE <refusalReasonCode>` asks the double for it. */
export const refusalHolderName = (adyenCode: string): string => `REFUSE ${adyenCode}`;

/** The raw issuer answers Adyen adds for the conformance suite's decline cards (the test cards of docs/testing.md). */
const CARD_REFUSALS: Readonly<Record<string, { code: string; raw: string }>> = {
  '4000000000000002': { code: '2', raw: '05 : Do not honor' },
  '4000000000009995': { code: '12', raw: '51 : Insufficient funds' },
};
export const FRICTIONLESS_CARD = '4000003220000000';
export const CHALLENGE_CARD = '4000002500003155';

/** A Refused /payments answer body for an Adyen refusal code. */
export function refusedBody(payment: DoublePayment, code: string, raw?: string): Record<string, unknown> {
  const row = ADYEN_REFUSALS.find((r) => r.adyenCode === code);
  return {
    pspReference: payment.pspReference,
    resultCode: 'Refused',
    refusalReason: row?.adyenReason ?? 'Refused',
    refusalReasonCode: code,
    merchantReference: payment.reference,
    amount: payment.amount,
    additionalData: { ...(raw ? { refusalReasonRaw: raw } : {}), merchantReference: payment.reference },
  };
}

export function authorisedBody(
  payment: DoublePayment,
  threeDs?: 'frictionless' | 'challenge',
): Record<string, unknown> {
  payment.networkTxReference ??= digits(15);
  return {
    pspReference: payment.pspReference,
    resultCode: 'Authorised',
    merchantReference: payment.reference,
    amount: payment.amount,
    additionalData: {
      authCode: digits(6),
      networkTxReference: payment.networkTxReference,
      acquirerReference: `ACQ${digits(9)}`,
      merchantReference: payment.reference,
      ...(threeDs
        ? { threeDOffered: 'true', threeDAuthenticated: 'true', eci: '05', threeDSVersion: '2.2.0' }
        : { threeDOffered: 'false', threeDAuthenticated: 'false' }),
    },
  };
}

/** How the double decides a /payments request with a scheme card. */
export type CardDecision =
  | { kind: 'authorise'; threeDs?: 'frictionless' }
  | { kind: 'refuse'; code: string; raw?: string }
  | { kind: 'challenge' };

export function decideCard(
  card: { number?: string; holderName?: string },
  body: Record<string, unknown>,
): CardDecision {
  const holder = card.holderName?.match(/^REFUSE (\d+)$/);
  if (holder) return { kind: 'refuse', code: holder[1] };
  const listed = card.number ? CARD_REFUSALS[card.number] : undefined;
  if (listed) return { kind: 'refuse', code: listed.code, raw: listed.raw };
  if (body.shopperInteraction === 'ContAuth') {
    const method = body.paymentMethod as { networkPaymentReference?: string };
    // A merchant-initiated charge on a raw card must cite the scheme's id of the first payment.
    if (!method.networkPaymentReference || !body.recurringProcessingModel) return { kind: 'refuse', code: '38' };
    return { kind: 'authorise' };
  }
  if (card.number === FRICTIONLESS_CARD) return { kind: 'authorise', threeDs: 'frictionless' };
  if (card.number === CHALLENGE_CARD) return { kind: 'challenge' };
  return { kind: 'authorise' };
}

export const serviceError = (status: number, errorCode: string, message: string, errorType: string): Answer => ({
  status,
  body: { status, errorCode, message, errorType, pspReference: pspReference() },
});

/** A random HMAC key as Adyen shows it in the Customer Area (hex). */
export const newHmacKey = (): string => randomBytes(32).toString('hex');

/**
 * Signs a NotificationRequestItem as Adyen documents it (written here on its own, not with the library the
 * connector verifies with): HMAC-SHA256 with the hex key over pspReference, originalReference,
 * merchantAccountCode, merchantReference, amount value, currency, eventCode and success joined by ':'.
 */
export function sign(item: NotificationItem, hmacKey: string): string {
  const data = [
    item.pspReference,
    item.originalReference ?? '',
    item.merchantAccountCode,
    item.merchantReference,
    item.amount.value,
    item.amount.currency,
    item.eventCode,
    item.success,
  ].join(':');
  return createHmac('sha256', Buffer.from(hmacKey, 'hex')).update(data, 'utf8').digest('base64');
}

export interface NotificationItem {
  additionalData?: Record<string, string>;
  amount: AdyenAmount;
  eventCode: string;
  eventDate: string;
  merchantAccountCode: string;
  merchantReference: string;
  originalReference?: string;
  paymentMethod?: string;
  pspReference: string;
  reason?: string;
  success: 'true' | 'false';
}
