export interface RetryOptions {
  /** Attempts in all, the first included (default 4). */
  attempts?: number;
  /** Wait before the first retry, doubled each time (default 250 ms); a `Retry-After` answer wins. */
  baseDelayMs?: number;
  /** Longest single wait (default 5 s). */
  maxDelayMs?: number;
}

export interface RetryingFetchOptions extends RetryOptions {
  fetch?: (input: Request) => Promise<Response>;
  /** The Idempotency-Key of a POST that has none (default: a random UUID). */
  newIdempotencyKey?: () => string;
  sleep?: (ms: number) => Promise<void>;
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Answers worth the same request again: its key still in flight, or the rate limit. */
async function retryableAnswer(response: Response): Promise<boolean> {
  if (response.status === 429) return true;
  if (response.status !== 409) return false;
  try {
    const body = (await response.clone().json()) as { error?: { code?: string } };
    return body?.error?.code === 'IDEMPOTENCY_IN_PROGRESS';
  } catch {
    return false;
  }
}

function waitOf(response: Response | undefined, attempt: number, o: Required<RetryOptions>): number {
  const retryAfter = Number(response?.headers.get('retry-after'));
  const backoff = o.baseDelayMs * 2 ** (attempt - 1);
  const ms = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : backoff;
  return Math.min(ms, o.maxDelayMs);
}

/**
 * A fetch that gives every POST, PATCH and DELETE an Idempotency-Key (unless it has one; every route that
 * changes something honours it) and sends the same request again, under the same key, after a network error, a
 * 409 IDEMPOTENCY_IN_PROGRESS or a 429, with a doubling wait and a bounded number of attempts. GET is retried
 * on the same answers and errors: it changes nothing. The last answer (or error) is what the caller gets.
 */
/** The methods of the routes that change something. */
const CHANGES = new Set(['POST', 'PATCH', 'DELETE']);

export function retryingFetch(o: RetryingFetchOptions = {}): (input: Request) => Promise<Response> {
  const base = o.fetch ?? ((input: Request) => globalThis.fetch(input));
  const newKey = o.newIdempotencyKey ?? (() => globalThis.crypto.randomUUID());
  const sleep = o.sleep ?? delay;
  const limits: Required<RetryOptions> = {
    attempts: Math.max(1, o.attempts ?? 4),
    baseDelayMs: o.baseDelayMs ?? 250,
    maxDelayMs: o.maxDelayMs ?? 5_000,
  };
  return async (input: Request) => {
    if (CHANGES.has(input.method) && !input.headers.has('idempotency-key')) {
      input.headers.set('idempotency-key', newKey());
    }
    for (let attempt = 1; ; attempt++) {
      const last = attempt >= limits.attempts;
      let response: Response;
      try {
        response = await base(last ? input : input.clone());
      } catch (e) {
        if (last) throw e;
        await sleep(waitOf(undefined, attempt, limits));
        continue;
      }
      if (last || !(await retryableAnswer(response))) return response;
      await response.body?.cancel();
      await sleep(waitOf(response, attempt, limits));
    }
  };
}
