import { signatureHeaders } from './signing';

const FORWARD_TIMEOUT_MS = 10_000;

export interface ForwardedEvent {
  id: string;
  type: string;
}

/**
 * POSTs one event to `url` as a delivery carries it (same headers, signed with `secret`) and answers the HTTP
 * status, or why no answer came: the receiver being down must not stop the caller.
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
    });
    await res.arrayBuffer();
    return res.status;
  } catch (e) {
    const cause = (e as { cause?: { code?: string } }).cause?.code;
    return cause ?? (e as Error).message;
  }
}

/** One line per forwarded event: when, what, and the local answer. */
export const forwardLine = (event: ForwardedEvent, url: string, answer: number | string): string =>
  `${new Date().toISOString()}  ${event.type.padEnd(24)} ${event.id}  -> POST ${url} [${answer}]`;
