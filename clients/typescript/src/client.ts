import createFetchClient, { type Client } from 'openapi-fetch';
import type { paths } from './generated/api';
import type { Event } from './generated/events';
import { PaymentsApiError } from './errors';
import { retryingFetch, RetryOptions } from './retry';
import { SandboxTools, sandboxTools } from './sandbox';

export interface PaymentsClientOptions {
  /**
   * A private key: `prv_sandbox_…` or `prv_production_…`. Omitted only by a caller whose `fetch` carries another
   * credential (the dashboard's session cookie, which never gives the browser a key).
   */
  apiKey?: string;
  /** Where the gateway is reached, e.g. `https://payments.example.com` (default `http://localhost:3000`). */
  baseUrl?: string;
  retry?: RetryOptions;
  /** Another fetch (a proxy agent, a test double); default the global one. */
  fetch?: (input: Request) => Promise<Response>;
  /** The Idempotency-Key of a POST sent without one (default: a random UUID). */
  newIdempotencyKey?: () => string;
}

/** List routes: a GET that answers a bare JSON array of objects with an `id`. */
export type ListPath = {
  [P in keyof paths]: paths[P] extends {
    get: { responses: { 200: { content: { 'application/json': Array<{ id: string }> } } } };
  }
    ? P
    : never;
}[keyof paths];

type ListOperation<P extends ListPath> = paths[P]['get'];
/** An item of a list; an event's `type` narrows its `data`, which the OpenAPI schema cannot say. */
export type ListItem<P extends ListPath> = P extends '/v1/events'
  ? Event
  : ListOperation<P>['responses'][200]['content']['application/json'][number];
type ListParameters<P extends ListPath> = ListOperation<P>['parameters'];

export interface PaymentsClient extends Client<paths> {
  /**
   * Every item of a list, newest first, one page (`limit`, default 100) at a time: each next page starts after
   * the previous page's last id. `for await (const p of client.paginate('/v1/payment')) …`
   */
  paginate<P extends ListPath>(
    path: P,
    params?: {
      query?: Omit<NonNullable<ListParameters<P>['query']>, 'startingAfter'>;
      path?: ListParameters<P>['path'];
    },
  ): AsyncIterableIterator<ListItem<P>>;
  /** The sandbox tools (sandbox keys only): `await client.sandbox.completeChallenge(sessionId, { outcome })`. */
  sandbox: SandboxTools;
}

/**
 * A typed client of the payments API: `client.POST('/v1/payment/purchase', { body })` answers
 * `{ data, error, response }` with the types of that route; wrap a call in `unwrap()` to get the data or a
 * thrown {@link PaymentsApiError}. POSTs carry an Idempotency-Key and are retried under it (see retryingFetch).
 */
export function createPaymentsClient(o: PaymentsClientOptions): PaymentsClient {
  const client = createFetchClient<paths>({
    baseUrl: o.baseUrl ?? 'http://localhost:3000',
    headers: o.apiKey === undefined ? {} : { authorization: `Bearer ${o.apiKey}` },
    fetch: retryingFetch({ ...o.retry, fetch: o.fetch, newIdempotencyKey: o.newIdempotencyKey }),
  });
  async function* paginate<P extends ListPath>(
    path: P,
    params: { query?: Record<string, unknown>; path?: Record<string, unknown> } = {},
  ): AsyncIterableIterator<ListItem<P>> {
    const limit = Number(params.query?.limit ?? 100);
    let startingAfter: string | undefined;
    for (;;) {
      const query = { ...params.query, limit, ...(startingAfter ? { startingAfter } : {}) };
      // The path type is checked by the signature above; openapi-fetch cannot narrow a generic path here.
      const { data, error, response } = await (
        client.GET as (
          p: string,
          init: object,
        ) => Promise<{
          data?: Array<ListItem<P>>;
          error?: unknown;
          response: Response;
        }>
      )(path, { params: { query, path: params.path } });
      if (error !== undefined || !data) throw new PaymentsApiError(response, error);
      for (const item of data) yield item;
      if (data.length < limit) return;
      startingAfter = data[data.length - 1].id;
    }
  }
  return Object.assign(client, { paginate, sandbox: sandboxTools(client) }) as PaymentsClient;
}
