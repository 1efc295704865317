import { Types } from '@adyen/api-library';
import { currencyExponent, type AmountJson } from '@app/money';
import type {
  ApprovalDetails,
  AuthorizationOutcome,
  AuthorizationRequest,
  ProviderAction,
  ThreeDsResult,
} from '../provider-connector';
import { adyenRefusal } from './adyen-refusals';

type PaymentRequest = Types.checkout.PaymentRequest;
type PaymentResult = Types.checkout.PaymentResponse | Types.checkout.PaymentDetailsResponse;
const ShopperInteraction = Types.checkout.PaymentRequest.ShopperInteractionEnum;
const RecurringModel = Types.checkout.PaymentRequest.RecurringProcessingModelEnum;

/** Adyen's amount: minor units with the currency's ISO 4217 exponent (JPY 0, EUR 2, KWD 3), as ours. */
export function adyenAmount(amount: AmountJson): Types.checkout.Amount {
  const exponent = currencyExponent(amount.currency);
  if (exponent !== amount.exponent || !Number.isSafeInteger(amount.value)) {
    throw new Error(`${amount.currency} amounts have exponent ${exponent}, got ${amount.exponent}`);
  }
  return { currency: amount.currency, value: amount.value };
}

/** Ours from Adyen's (webhooks): the exponent is the currency's. */
export function ourAmount(amount: { currency?: string; value?: number } | undefined): AmountJson | undefined {
  if (!amount?.currency || typeof amount.value !== 'number') return undefined;
  const exponent = currencyExponent(amount.currency);
  return exponent === undefined ? undefined : { currency: amount.currency, value: amount.value, exponent };
}

/** Adyen's expiryYear is four digits. */
const fullYear = (year: string): string => (year.length === 2 ? `20${year}` : year);

/**
 * The /payments request of one authorization. Raw card fields (`number`, `expiryMonth`, `expiryYear`, `cvc`) in a
 * `scheme` payment method: the encrypted fields come from Adyen's browser components, which a server does not
 * have. A merchant-initiated charge is `ContAuth` with the original `networkPaymentReference`; a purchase is
 * captured at once (`captureDelayHours: 0`), an authorization waits for a capture (`manualCapture`).
 */
export function paymentRequest(
  merchantAccount: string,
  request: AuthorizationRequest,
  returnUrl: string,
): PaymentRequest {
  const card = request.card;
  if (!card) throw new Error('Adyen connector: only card payments are supported');
  const merchantInitiated = request.initiator === 'merchant';
  const paymentMethod: Types.checkout.CardDetails = {
    type: Types.checkout.CardDetails.TypeEnum.Scheme,
    number: card.cardNumber,
    expiryMonth: card.expiryMonth.padStart(2, '0'),
    expiryYear: fullYear(card.expiryYear),
    ...(card.cvv && !merchantInitiated ? { cvc: card.cvv } : {}),
    ...(card.cardholderName ? { holderName: card.cardholderName } : {}),
    ...(merchantInitiated && request.networkTransactionId
      ? { networkPaymentReference: request.networkTransactionId }
      : {}),
  };
  const address = card.cardAddress;
  const body: PaymentRequest = {
    merchantAccount,
    reference: request.reference,
    amount: adyenAmount(request.amount),
    paymentMethod: paymentMethod as PaymentRequest['paymentMethod'],
    returnUrl,
    channel: Types.checkout.PaymentRequest.ChannelEnum.Web,
    shopperInteraction: merchantInitiated ? ShopperInteraction.ContAuth : ShopperInteraction.Ecommerce,
    ...(request.capture ? { captureDelayHours: 0 } : { additionalData: { manualCapture: 'true' } }),
    ...(request.shopperReference ? { shopperReference: request.shopperReference } : {}),
    ...(request.shopperEmail ? { shopperEmail: request.shopperEmail } : {}),
    metadata: { paymentId: request.paymentId },
  };
  if (merchantInitiated) {
    body.recurringProcessingModel = RecurringModel.UnscheduledCardOnFile;
  } else {
    // 3DS through Adyen's redirect page: the shopper comes back to returnUrl with `redirectResult`.
    body.authenticationData = {
      threeDSRequestData: {
        nativeThreeDS: Types.checkout.ThreeDSRequestData.NativeThreeDSEnum.Disabled,
      },
    };
  }
  if (address?.line1 && address.city && address.postalCode && address.country) {
    body.billingAddress = {
      street: address.line1,
      houseNumberOrName: address.line2 ?? '',
      city: address.city,
      postalCode: address.postalCode,
      country: address.country,
      ...(address.state ? { stateOrProvince: address.state } : {}),
    };
  }
  return body;
}

function providerAction(result: PaymentResult): ProviderAction | undefined {
  const action = result.action as { type?: string; url?: string; method?: string; data?: Record<string, string> };
  if (!action?.url) return undefined;
  const method = action.method?.toUpperCase() === 'POST' ? 'POST' : 'GET';
  return { type: 'redirect', url: action.url, method, ...(action.data ? { data: action.data } : {}) };
}

function threeDs(additional: Record<string, string>, afterChallenge: boolean): ThreeDsResult | undefined {
  const version = additional.threeDSVersion;
  const eci = additional.eci && additional.eci !== 'N/A' ? additional.eci : undefined;
  const extra = { ...(eci ? { eci } : {}), ...(version ? { version } : {}) };
  if (afterChallenge) return { flow: 'challenge', ...extra };
  if (additional.threeDAuthenticated === 'true') return { flow: 'frictionless', ...extra };
  if (additional.threeDOffered === 'true') return { flow: 'attempted', ...extra };
  return undefined;
}

function approval(result: PaymentResult, afterChallenge: boolean): ApprovalDetails {
  const additional = result.additionalData ?? {};
  const threeDsResult = threeDs(additional, afterChallenge);
  return {
    acquirerReference: result.pspReference ?? '',
    authorizationCode: additional.authCode ?? '',
    networkTransactionId: additional.networkTxReference ?? '',
    networkReferenceId: additional.acquirerReference ?? '',
    ...(threeDsResult ? { threeDs: threeDsResult } : {}),
  };
}

/** Thrown for a resultCode this connector does not know how to settle: the outcome is left unknown. */
export class UnexpectedResultCode extends Error {}

type ResultKind = 'approved' | 'declined' | 'cancelled' | 'failed' | 'challenge' | 'pending' | 'unknown';

/**
 * Every resultCode of the v71 document. `unknown`: answers to flows we never ask for (authentication-only 3DS,
 * partial authorisations) or without a documented meaning for a card payment; never guessed.
 */
const RESULT_KINDS: Readonly<Record<`${Types.checkout.PaymentResponse.ResultCodeEnum}`, ResultKind>> = {
  Authorised: 'approved',
  Refused: 'declined',
  Cancelled: 'cancelled',
  Error: 'failed',
  RedirectShopper: 'challenge',
  ChallengeShopper: 'challenge',
  IdentifyShopper: 'challenge',
  Pending: 'pending',
  Received: 'pending',
  PresentToShopper: 'pending',
  AuthenticationFinished: 'unknown',
  AuthenticationNotRequired: 'unknown',
  PartiallyAuthorised: 'unknown',
  Success: 'unknown',
};

/** Our outcome of a /payments or /payments/details answer. */
export function authorizationOutcome(result: PaymentResult, afterChallenge = false): AuthorizationOutcome {
  const pspReference = result.pspReference ?? '';
  const additional = result.additionalData ?? {};
  const kind: ResultKind = RESULT_KINDS[result.resultCode as keyof typeof RESULT_KINDS] ?? 'unknown';
  switch (kind) {
    case 'approved':
      return { kind: 'approved', ...approval(result, afterChallenge) };
    case 'declined':
      return {
        kind: 'declined',
        acquirerReference: pspReference,
        refusalCode: adyenRefusal(
          result.refusalReasonCode,
          result.refusalReason,
          additional.refusalReasonRaw,
          additional.merchantAdviceCode,
        ),
      };
    case 'cancelled':
      return {
        kind: 'declined',
        acquirerReference: pspReference,
        refusalCode: adyenRefusal(result.refusalReasonCode ?? '15', result.refusalReason ?? 'Cancelled'),
      };
    case 'failed':
      return {
        kind: 'failed',
        acquirerReference: pspReference || null,
        message: `Adyen error: ${result.refusalReason ?? 'processing error'}`,
      };
    case 'challenge': {
      const action = providerAction(result);
      return { kind: 'challenge_required', acquirerReference: pspReference, ...(action ? { action } : {}) };
    }
    case 'pending': {
      const action = providerAction(result);
      return { kind: 'pending_action', acquirerReference: pspReference, ...(action ? { action } : {}) };
    }
    case 'unknown':
      throw new UnexpectedResultCode(`Adyen answered resultCode ${String(result.resultCode)}`);
    default: {
      const never: never = kind;
      throw new UnexpectedResultCode(`unmapped ${String(never)}`);
    }
  }
}
