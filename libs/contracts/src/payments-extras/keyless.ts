import type { CallerContext } from '../context';

/**
 * The context of a keyless command (3DS resume, hosted pages): no key, so no merchant yet. The service
 * takes merchant and environment from the session the body names and never from this context.
 */
export function keylessContext(requestId: string): CallerContext {
  return { requestId, environment: 'production', merchantCode: '' };
}
