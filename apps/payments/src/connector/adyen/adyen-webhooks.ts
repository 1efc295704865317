import { hmacValidator } from '@adyen/api-library';
import type { NotificationRequestItem } from '@adyen/api-library/lib/src/typings/notification/models';
import {
  WebhookRejected,
  type ConnectorConnection,
  type ProviderNotification,
  type WebhookAcknowledgement,
} from '../provider-connector';
import { ourAmount } from './adyen-payments';
import { adyenRefusal } from './adyen-refusals';

/** What Adyen expects back from a standard webhook it delivered (else it retries). */
export const ADYEN_ACKNOWLEDGEMENT: WebhookAcknowledgement = {
  status: 200,
  contentType: 'text/plain',
  body: '[accepted]',
};

const KINDS: Readonly<Record<string, ProviderNotification['kind']>> = {
  AUTHORISATION: 'authorisation',
  CAPTURE: 'capture',
  CAPTURE_FAILED: 'capture_failed',
  REFUND: 'refund',
  REFUND_FAILED: 'refund_failed',
  // A refund the scheme sent back: the money did not reach the shopper.
  REFUNDED_REVERSED: 'refund_failed',
  CANCELLATION: 'cancellation',
  TECHNICAL_CANCEL: 'cancellation',
  CHARGEBACK: 'chargeback',
  SECOND_CHARGEBACK: 'chargeback',
  CHARGEBACK_REVERSED: 'chargeback_reversed',
};

interface NotificationBody {
  live?: unknown;
  notificationItems?: { NotificationRequestItem?: NotificationRequestItem }[];
}

function kindOf(item: NotificationRequestItem): ProviderNotification['kind'] {
  const code = String(item.eventCode);
  if (code === 'CANCEL_OR_REFUND') {
    return item.additionalData?.['modification.action'] === 'refund' ? 'refund' : 'cancellation';
  }
  return KINDS[code] ?? 'other';
}

/** `eventCode:pspReference:success:originalReference`: Adyen sends the same event again until acknowledged. */
export const adyenEventId = (item: NotificationRequestItem): string =>
  [item.eventCode, item.pspReference, item.success, item.originalReference ?? ''].join(':');

/**
 * Verifies and parses one standard webhook call (a NotificationRequest): every item's
 * `additionalData.hmacSignature` with the connection's HMAC key (the library's HmacValidator, Adyen's scheme),
 * the merchant account, and test/live against the connection's environment. Any item that does not verify
 * rejects the whole call (Adyen resends it).
 */
export function parseAdyenWebhook(connection: ConnectorConnection, rawBody: Buffer): ProviderNotification[] {
  const hmacKey = connection.credentials.hmacKey;
  if (!hmacKey) throw new WebhookRejected('The connection has no HMAC key');
  let body: NotificationBody;
  try {
    body = JSON.parse(rawBody.toString('utf8')) as NotificationBody;
  } catch {
    throw new WebhookRejected('The body is not JSON');
  }
  if (!Array.isArray(body.notificationItems) || body.notificationItems.length === 0) {
    throw new WebhookRejected('No notificationItems');
  }
  const live = connection.environment === 'production' ? 'true' : 'false';
  if (String(body.live) !== live) throw new WebhookRejected(`live is ${String(body.live)}, expected ${live}`);
  const validator = new hmacValidator();
  return body.notificationItems.map(({ NotificationRequestItem: item }) => {
    if (!item?.pspReference || !item.eventCode || Number.isNaN(Date.parse(item.eventDate))) {
      throw new WebhookRejected('An item without pspReference, eventCode or eventDate');
    }
    let valid: boolean;
    try {
      valid = validator.validateHMAC(item, hmacKey);
    } catch {
      valid = false;
    }
    if (!valid)
      throw new WebhookRejected(`The HMAC signature of ${item.eventCode} ${item.pspReference} does not verify`);
    if (connection.credentials.merchantAccount && item.merchantAccountCode !== connection.credentials.merchantAccount) {
      throw new WebhookRejected(`Merchant account ${item.merchantAccountCode} is not the connection's`);
    }
    return notification(item);
  });
}

function notification(item: NotificationRequestItem): ProviderNotification {
  const kind = kindOf(item);
  const success = String(item.success) === 'true';
  const isPayment = kind === 'authorisation';
  const amount = ourAmount(item.amount);
  const occurredAt = new Date(item.eventDate);
  const failedWithReason = !success && item.reason;
  return {
    eventId: adyenEventId(item),
    kind,
    success,
    acquirerReference: isPayment ? item.pspReference : (item.originalReference ?? item.pspReference),
    ...(!isPayment && item.originalReference ? { modificationReference: item.pspReference } : {}),
    ...(item.merchantReference ? { merchantReference: item.merchantReference } : {}),
    ...(amount ? { amount } : {}),
    ...(failedWithReason
      ? {
          refusalCode: adyenRefusal(
            undefined,
            item.reason,
            item.additionalData?.refusalReasonRaw,
            item.additionalData?.merchantAdviceCode,
          ),
          reason: item.reason,
        }
      : {}),
    occurredAt,
    providerEvent: String(item.eventCode),
  };
}
