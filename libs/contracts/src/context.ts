export const ENVIRONMENTS = ['production', 'sandbox'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

/**
 * Who is calling, carried in every command message: services scope every query by `merchantCode` and
 * `environment`, and log `requestId`.
 */
export interface CallerContext {
  requestId: string;
  environment: Environment;
  merchantCode: string;
  /**
   * The merchant's integer id, the `merchantId` plans and subscriptions report. Set by the
   * gateway on every keyed command; absent on keyless ones.
   */
  merchantId?: number;
  /** Id of the API key, for audit; absent for keyless calls (3DS resume, hosted pages). */
  keyId?: string;
  /** The request's Idempotency-Key header, when it carried one. */
  idempotencyKey?: string;
  /**
   * Sandbox only: how far the merchant's sandbox clock runs ahead of real time, in ms. The
   * gateway adds it to every sandbox command; a service's Clock adds it to "now" for this caller.
   */
  clockOffsetMs?: number;
}

/** The shape of every command message on NATS. */
export interface CommandMessage<T = unknown> {
  ctx: CallerContext;
  body: T;
}
