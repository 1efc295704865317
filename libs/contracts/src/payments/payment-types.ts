/** Every status a payment can be in (docs/state-machines.md). */
export const PAYMENT_STATUSES = [
  'captured',
  'authorized',
  'declined',
  'pending_3ds',
  'pending_action',
  'failed',
  'cancelled',
  'refunded',
  'charged_back',
] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/**
 * What an operation on an existing payment did (an operation result's status). `pending`: the provider accepted
 * it and reports the result later; the payment changes (and its event is sent) when it does.
 */
export const OPERATION_STATUSES = ['captured', 'refunded', 'cancelled', 'failed', 'pending'] as const;
export type OperationStatus = (typeof OPERATION_STATUSES)[number];

/** `card` or one of the alternative payment methods. */
export const PAYMENT_METHODS = ['card', 'pix', 'boleto', 'ach'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export const isPaymentMethod = (value: unknown): value is PaymentMethod =>
  typeof value === 'string' && (PAYMENT_METHODS as readonly string[]).includes(value);

/** Acquirer adapters that ship; a connection names one of them (`sandbox` is the built-in simulator). */
export const ACQUIRERS = ['sandbox', 'adyen', 'stripe'] as const;
export type Acquirer = (typeof ACQUIRERS)[number];

export const RECOVERY_ACTIONS = ['retry', 'switch_method', 'terminal'] as const;
export type RecoveryAction = (typeof RECOVERY_ACTIONS)[number];

export const CARD_TYPES = ['credit', 'debit'] as const;
export type CardType = (typeof CARD_TYPES)[number];

/** Stored-credential modifiers (`card.cardOnFile`). */
export const CARD_ON_FILE_TYPES = ['recurring', 'unscheduled', 'installment'] as const;
export const CARD_ON_FILE_INITIATORS = ['cardholder', 'merchant'] as const;
export type CardOnFileInitiator = (typeof CARD_ON_FILE_INITIATORS)[number];

export const ACTION_TYPES = ['threeds_challenge', 'redirect', 'qr_code', 'barcode'] as const;
export type ActionType = (typeof ACTION_TYPES)[number];
