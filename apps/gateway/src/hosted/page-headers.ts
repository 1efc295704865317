import type { FastifyReply } from 'fastify';
import { privatePageHeaders } from './html';

export const CHECKOUT_PAGE_OPTIONS = Symbol('CHECKOUT_PAGE_OPTIONS');
export interface CheckoutPageOptions {
  /** PUBLIC_BASE_URL: the 3DS challenge the SDK frames lives there. */
  publicBaseUrl: string;
}

/**
 * The checkout page's headers: every asset from this gateway, no inline script or style at all, only the
 * gateway's own challenge page may be framed, and the page itself is never framed (clickjacking) or cached
 * (it carries a client token).
 */
export function pageHeaders(reply: FastifyReply, o: CheckoutPageOptions): void {
  const gateway = new URL(o.publicBaseUrl).origin;
  privatePageHeaders(
    reply,
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
      `connect-src 'self'; frame-src 'self' ${gateway}; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`,
  );
  void reply.header('x-frame-options', 'DENY');
}

/**
 * Scripts and styles: public and cacheable (they hold no credential); a deploy changes them within minutes.
 * Readable from any origin, so a merchant's page can load the SDK with Subresource Integrity (`crossorigin`).
 */
export function assetHeaders(reply: FastifyReply, contentType: string): void {
  void reply
    .header('content-type', contentType)
    .header('cache-control', 'public, max-age=300')
    .header('access-control-allow-origin', '*')
    .header('x-content-type-options', 'nosniff')
    .header('cross-origin-resource-policy', 'cross-origin');
}
