import type { RecoveryAction, RefusalCodeDto } from '@app/contracts';

/**
 * Adyen's refusal reasons (`refusalReasonCode` / `refusalReason` of a Refused payment, the `reason` of a failed
 * AUTHORISATION notification) in our terms: a normalized ISO 8583 code, its reason, and what the merchant can do
 * next. docs/connectors-adyen.md shows the same table; adyen.spec.ts sends every row through the double.
 */
export interface AdyenRefusalRow {
  /** Adyen's `refusalReasonCode`. */
  adyenCode: string;
  /** Adyen's `refusalReason` text for it. */
  adyenReason: string;
  reasonCode: string;
  reason: string;
  recoveryAction: RecoveryAction;
}

const row = (
  adyenCode: string,
  adyenReason: string,
  reasonCode: string,
  reason: string,
  recoveryAction: RecoveryAction,
): AdyenRefusalRow => ({ adyenCode, adyenReason, reasonCode, reason, recoveryAction });

export const ADYEN_REFUSALS: readonly AdyenRefusalRow[] = [
  row('0', 'Unknown', '5', 'Do not honor', 'retry'),
  row('2', 'Refused', '5', 'Do not honor', 'retry'),
  row('3', 'Referral', '1', 'Refer to card issuer', 'switch_method'),
  row('4', 'Acquirer Error', '96', 'System malfunction', 'retry'),
  row('5', 'Blocked Card', '62', 'Restricted card', 'switch_method'),
  row('6', 'Expired Card', '54', 'Expired card', 'switch_method'),
  row('7', 'Invalid Amount', '13', 'Invalid amount', 'terminal'),
  row('8', 'Invalid Card Number', '14', 'Invalid card number', 'switch_method'),
  row('9', 'Issuer Unavailable', '91', 'Issuer unavailable', 'retry'),
  row('10', 'Not supported', '57', 'Transaction not permitted to cardholder', 'switch_method'),
  row('11', '3D Not Authenticated', 'Q1', 'Card authentication failed', 'switch_method'),
  row('12', 'Not enough balance', '51', 'Insufficient funds', 'switch_method'),
  row('14', 'Acquirer Fraud', '59', 'Suspected fraud', 'terminal'),
  row('15', 'Cancelled', '17', 'Customer cancellation', 'terminal'),
  row('16', 'Shopper Cancelled', '17', 'Customer cancellation', 'terminal'),
  row('17', 'Invalid Pin', '55', 'Incorrect PIN', 'switch_method'),
  row('18', 'Pin tries exceeded', '75', 'PIN tries exceeded', 'switch_method'),
  row('19', 'Pin validation not possible', '86', 'PIN validation not possible', 'switch_method'),
  row('20', 'FRAUD', '59', 'Suspected fraud', 'terminal'),
  row('21', 'Not Submitted', '96', 'System malfunction', 'retry'),
  row('22', 'FRAUD-CANCELLED', '59', 'Suspected fraud', 'terminal'),
  row('23', 'Transaction Not Permitted', '57', 'Transaction not permitted to cardholder', 'switch_method'),
  row('24', 'CVC Declined', '82', 'CVV failure', 'switch_method'),
  row('25', 'Restricted Card', '62', 'Restricted card', 'switch_method'),
  row('26', 'Revocation Of Auth', 'R1', 'Revocation of authorization order', 'terminal'),
  row('27', 'Declined Non Generic', '5', 'Do not honor', 'retry'),
  row('28', 'Withdrawal amount exceeded', '61', 'Exceeds withdrawal amount limit', 'switch_method'),
  row('29', 'Withdrawal count exceeded', '65', 'Activity count limit exceeded', 'switch_method'),
  row('31', 'Issuer Suspected Fraud', '59', 'Suspected fraud', 'terminal'),
  row('32', 'AVS Declined', '5', 'Address verification failed', 'switch_method'),
  row('33', 'Card requires online pin', '70', 'PIN required', 'switch_method'),
  row('34', 'No checking account available on Card', '52', 'No checking account', 'switch_method'),
  row('35', 'No savings account available on Card', '53', 'No savings account', 'switch_method'),
  row('36', 'Mobile pin required', '70', 'PIN required', 'switch_method'),
  row('37', 'Contactless fallback', '65', 'Contactless limit reached: insert the card', 'switch_method'),
  row('38', 'Authentication required', '1A', 'Authentication required', 'switch_method'),
  row('39', 'RReq not received from DS', 'Q1', 'Card authentication failed', 'retry'),
  row('40', 'Current AID is in Penalty Box', '5', 'Do not honor', 'switch_method'),
  row('41', 'CVM Required Restart Payment', '70', 'PIN required', 'switch_method'),
  row('42', '3DS Authentication Error', 'Q1', 'Card authentication failed', 'retry'),
  row('43', 'Online PIN required', '70', 'PIN required', 'switch_method'),
  row('44', 'Try another interface', '5', 'Do not honor', 'switch_method'),
  row('45', 'Chip downgrade mode', '5', 'Do not honor', 'switch_method'),
  row('46', 'Transaction blocked by Adyen to prevent excessive retry fees', 'R0', 'Retries exhausted', 'terminal'),
];

const BY_CODE = new Map(ADYEN_REFUSALS.map((r) => [r.adyenCode, r]));
const BY_REASON = new Map(ADYEN_REFUSALS.map((r) => [r.adyenReason.toLowerCase(), r]));

/**
 * The issuer's own ISO 8583 answer that Adyen passes in `additionalData.refusalReasonRaw` ("05 : Do not honor",
 * "51 : Insufficient funds"): used when Adyen's own code is a generic one, since it says more.
 */
const ISO_RAW: Readonly<Record<string, { reason: string; recoveryAction: RecoveryAction }>> = {
  '5': { reason: 'Do not honor', recoveryAction: 'retry' },
  '14': { reason: 'Invalid card number', recoveryAction: 'switch_method' },
  '41': { reason: 'Lost card', recoveryAction: 'terminal' },
  '43': { reason: 'Stolen card', recoveryAction: 'terminal' },
  '46': { reason: 'Closed account', recoveryAction: 'switch_method' },
  '51': { reason: 'Insufficient funds', recoveryAction: 'switch_method' },
  '54': { reason: 'Expired card', recoveryAction: 'switch_method' },
  '57': { reason: 'Transaction not permitted to cardholder', recoveryAction: 'switch_method' },
  '59': { reason: 'Suspected fraud', recoveryAction: 'terminal' },
  '61': { reason: 'Exceeds withdrawal amount limit', recoveryAction: 'switch_method' },
  '62': { reason: 'Restricted card', recoveryAction: 'switch_method' },
  '65': { reason: 'Activity count limit exceeded', recoveryAction: 'switch_method' },
  '91': { reason: 'Issuer unavailable', recoveryAction: 'retry' },
  '96': { reason: 'System malfunction', recoveryAction: 'retry' },
};

/** Adyen codes that say only "refused": the issuer's raw code, when Adyen gives it, is more precise. */
const GENERIC = new Set(['0', '2', '27']);

/** "05 : Do not honor" → "5"; undefined when it does not start with an ISO code. */
function rawIsoCode(raw: string | undefined): string | undefined {
  const match = raw?.match(/^\s*([0-9A-Z]{2})\b/);
  return match ? match[1].replace(/^0(?=\d)/, '') : undefined;
}

/**
 * Mastercard's Merchant Advice Code (`additionalData.merchantAdviceCode`, "03: Do not try again"): the issuer's
 * word on retrying, which binds the merchant (retrying after 03 or 21 is against the scheme's rules).
 */
function adviceAction(merchantAdviceCode: string | undefined, mapped: RecoveryAction): RecoveryAction {
  const mac = merchantAdviceCode?.match(/^\s*(\d{2})/)?.[1];
  if (mac === '03' || mac === '21') return 'terminal';
  if (mapped === 'terminal') return mapped;
  if (mac === '01') return 'switch_method';
  if (mac === '02') return 'retry';
  return mapped;
}

/**
 * Our refusal code for what Adyen answered. `code` is `refusalReasonCode` (absent on notifications, which carry
 * only the reason text), `reason` the `refusalReason`; from `additionalData`, `raw` is `refusalReasonRaw` and
 * `merchantAdviceCode` Mastercard's advice.
 */
export function adyenRefusal(
  code: string | undefined,
  reason: string | undefined,
  raw?: string,
  merchantAdviceCode?: string,
): RefusalCodeDto {
  const known = (code !== undefined ? BY_CODE.get(code) : undefined) ?? BY_REASON.get((reason ?? '').toLowerCase());
  const adyenCode = code ?? known?.adyenCode ?? '0';
  const adyenReason = reason ?? known?.adyenReason ?? 'Unknown';
  const iso = rawIsoCode(raw);
  if ((!known || GENERIC.has(known.adyenCode)) && iso && ISO_RAW[iso]) {
    return {
      reasonCode: iso,
      reason: ISO_RAW[iso].reason,
      originalReasonCode: adyenCode,
      originalReason: `${adyenReason} (${raw?.trim()})`,
      recoveryAction: adviceAction(merchantAdviceCode, ISO_RAW[iso].recoveryAction),
    };
  }
  const mapped = known ?? BY_CODE.get('0')!;
  return {
    reasonCode: mapped.reasonCode,
    reason: mapped.reason,
    originalReasonCode: adyenCode,
    originalReason: adyenReason,
    recoveryAction: adviceAction(merchantAdviceCode, mapped.recoveryAction),
  };
}
