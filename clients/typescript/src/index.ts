export { createPaymentsClient } from './client';
export type { ListItem, ListPath, PaymentsClient, PaymentsClientOptions } from './client';
export { PaymentsApiError, unwrap } from './errors';
export type { ErrorBody, ErrorCode, KnownErrorCode } from './errors';
export { retryingFetch } from './retry';
export type { SandboxTools } from './sandbox';
export type { RetryOptions, RetryingFetchOptions } from './retry';
export {
  constructWebhookEvent,
  verifyTheriusSignature,
  verifyWebhookSignature,
  WebhookVerificationError,
} from './webhooks';
export type { ConstructOptions, VerifyOptions, WebhookEvent } from './webhooks';
export type { components, operations, paths } from './generated/api';
export { ERROR_CODES, EVENT_TYPES } from './generated/events';
export type { Event, EventDataMap, EventType, PingEvent, ProviderPaymentNames } from './generated/events';
