/**
 * A provider's inbound webhook call as the gateway received it, forwarded to payments: the raw body (base64,
 * byte for byte, as the provider signed it) and the headers the signature may be in.
 */
export interface ConnectorWebhookCommand {
  connectionId: string;
  rawBody: string;
  headers: Record<string, string>;
}

/** What the gateway answers the provider: the connector's acknowledgement once the events are stored. */
export interface ConnectorWebhookAnswer {
  status: number;
  contentType: string;
  body: string;
}

/** The shopper back from a provider's 3DS page: the query and form fields the provider added to the return URL. */
export interface ChallengeReturnCommand {
  sessionId: string;
  details: Record<string, string>;
}

/** The largest webhook body the gateway takes (Adyen batches and Stripe events are a few KiB). */
export const CONNECTOR_WEBHOOK_BODY_LIMIT = 256 * 1024;
