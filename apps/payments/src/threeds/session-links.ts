/** A 3DS session lives 15 minutes from when the challenge is issued. */
export const THREE_DS_SESSION_TTL_MS = 15 * 60 * 1000;

/** The gateway's hosted pages a session's `actionRequired.url` points to. */
export function challengeUrl(baseUrl: string, sessionId: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/v1/3ds/challenge/${encodeURIComponent(sessionId)}`;
}

/**
 * Where a provider's 3-D Secure page sends the shopper back (AuthorizationRequest.returnUrl): the gateway collects
 * what the provider adds (query or form) and resumes the payment with it.
 */
export function providerReturnUrl(baseUrl: string, sessionId: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/v1/3ds/return/${encodeURIComponent(sessionId)}`;
}

export function apmUrl(baseUrl: string, sessionId: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/v1/apm/${encodeURIComponent(sessionId)}`;
}

/** Expiry is inclusive: at `expiresAt` the session is already gone. */
export const isExpired = (s: { expiresAt: Date }, now: Date): boolean => now.getTime() >= s.expiresAt.getTime();
