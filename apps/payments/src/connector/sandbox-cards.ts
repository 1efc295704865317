import { RefusalCodeDto } from '@app/contracts';

/** The sandbox acquirer's decline codes: normalized ISO 8583 code, and the raw code it "sends". */
export const SANDBOX_DECLINES = {
  doNotHonor: {
    reasonCode: '5',
    reason: 'Do not honor',
    originalReasonCode: '05',
    originalReason: 'DO_NOT_HONOR',
    recoveryAction: 'retry',
  },
  insufficientFunds: {
    reasonCode: '51',
    reason: 'Insufficient funds',
    originalReasonCode: '51',
    originalReason: 'INSUFFICIENT_FUNDS',
    recoveryAction: 'switch_method',
  },
  expiredCard: {
    reasonCode: '54',
    reason: 'Expired card',
    originalReasonCode: '54',
    originalReason: 'EXPIRED_CARD',
    recoveryAction: 'switch_method',
  },
  cvvFailure: {
    reasonCode: '82',
    reason: 'CVV failure',
    originalReasonCode: '82',
    originalReason: 'CVV_FAILURE',
    recoveryAction: 'switch_method',
  },
  suspectedFraud: {
    reasonCode: '59',
    reason: 'Suspected fraud',
    originalReasonCode: '59',
    originalReason: 'SUSPECTED_FRAUD',
    recoveryAction: 'terminal',
  },
  activityLimit: {
    reasonCode: '65',
    reason: 'Activity count limit exceeded',
    originalReasonCode: '65',
    originalReason: 'EXCEEDS_WITHDRAWAL_FREQUENCY_LIMIT',
    recoveryAction: 'switch_method',
  },
  authenticationFailed: {
    reasonCode: 'Q1',
    reason: 'Card authentication failed',
    originalReasonCode: 'Q1',
    originalReason: 'AUTHENTICATION_FAILED',
    recoveryAction: 'switch_method',
  },
} as const satisfies Record<string, RefusalCodeDto>;

/** How a sandbox test card behaves (the sandbox's test card numbers); any other valid card is approved. */
export type SandboxBehaviour =
  | { kind: 'approve' }
  | { kind: 'decline'; refusal: RefusalCodeDto }
  | { kind: 'fail' }
  | { kind: 'challenge'; challengeFails: boolean }
  /** Approved while the cardholder is present, declined on every merchant-initiated charge. */
  | { kind: 'decline_mit'; refusal: RefusalCodeDto }
  /** Approved; a later capture, refund or cancel of it (`operation`) fails at the acquirer (processing error). */
  | { kind: 'fail_operation'; operation: SandboxFailingOperation };

export type SandboxFailingOperation = 'capture' | 'refund' | 'cancel';

export const SANDBOX_CARDS: Readonly<Record<string, SandboxBehaviour>> = {
  '4000000000000002': { kind: 'decline', refusal: SANDBOX_DECLINES.doNotHonor },
  '4000000000009995': { kind: 'decline', refusal: SANDBOX_DECLINES.insufficientFunds },
  '4000000000000069': { kind: 'decline', refusal: SANDBOX_DECLINES.expiredCard },
  '4000000000000127': { kind: 'decline', refusal: SANDBOX_DECLINES.cvvFailure },
  '4000000000009235': { kind: 'decline', refusal: SANDBOX_DECLINES.suspectedFraud },
  '4000000000001341': { kind: 'decline', refusal: SANDBOX_DECLINES.activityLimit },
  '4000000000000119': { kind: 'fail' },
  '4000003220000000': { kind: 'approve' },
  '4000002500003155': { kind: 'challenge', challengeFails: false },
  '4000000000003055': { kind: 'challenge', challengeFails: true },
  '4000000000000341': { kind: 'decline_mit', refusal: SANDBOX_DECLINES.insufficientFunds },
  '4000000000004954': { kind: 'decline_mit', refusal: SANDBOX_DECLINES.suspectedFraud },
  '4000000000000309': { kind: 'fail_operation', operation: 'capture' },
  '4000000000000317': { kind: 'fail_operation', operation: 'refund' },
  '4000000000000325': { kind: 'fail_operation', operation: 'cancel' },
};

export const sandboxBehaviour = (cardNumber: string): SandboxBehaviour =>
  SANDBOX_CARDS[cardNumber] ?? { kind: 'approve' };
