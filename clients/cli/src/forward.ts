import { signatureHeaders } from '../../typescript/src/signature';

const FORWARD_TIMEOUT_MS = 10_000;

export interface ForwardedEvent {
  id: string;
  type: string;
}

/**
 * POSTs one event to `url` as a delivery carries it (same headers, signed with `secret`) and answers the HTTP
 * status, or why no answer came: the receiver being down must not stop the caller. A redirect is never
 * followed (a signed event must not be re-posted to wherever the local receiver points): it answers the 3xx.
 */
export async function forwardEvent(url: string, event: ForwardedEvent, secret: string): Promise<number | string> {
  const body = JSON.stringify(event);
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'PaymentsPlatform-CLI/0.1',
        'webhook-id': event.id,
        ...signatureHeaders(secret, body, Date.now()),
      },
      body,
      signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
      redirect: 'manual',
    });
    await res.arrayBuffer();
    return res.status >= 300 && res.status < 400 ? `${res.status}, redirect not followed` : res.status;
  } catch (e) {
    const cause = (e as { cause?: { code?: string } }).cause?.code;
    return cause ?? (e as Error).message;
  }
}

/** One line per forwarded event: when, what, and the local answer. */
export const forwardLine = (event: ForwardedEvent, url: string, answer: number | string): string =>
  `${new Date().toISOString()}  ${event.type.padEnd(24)} ${event.id}  -> POST ${url} [${answer}]`;
