import { SealedIdempotency } from '@app/idempotency';

/**
 * The webhook changes under an Idempotency-Key (the gateway forwards the header in the caller), kept here beside
 * the data they change: the shared library's sealed-answer runner (@app/idempotency SealedIdempotency), with
 * this service's lease (webhooks.module.ts). Kept in this service, not at the gateway, so that a retry after
 * the gateway's 504 finds the key of the request the service did finish and replays it instead of doing it
 * twice. An answer that shows a signing secret is stored sealed with WEBHOOK_SECRET_KEYS.
 */
export class WebhookIdempotency extends SealedIdempotency {}
