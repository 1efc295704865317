import { createPaymentsClient } from '../src/client';
import { PaymentsApiError, unwrap } from '../src/errors';
import { retryingFetch } from '../src/retry';

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const inProgress = () => json(409, { error: { status: 409, code: 'IDEMPOTENCY_IN_PROGRESS', message: 'busy' } });

/** A fetch double answering from a script, recording what it was sent. */
function scripted(...answers: Array<Response | Error>) {
  const sent: { method: string; url: string; key: string | null; auth: string | null; body: string }[] = [];
  const fetch = async (input: Request) => {
    sent.push({
      method: input.method,
      url: input.url,
      key: input.headers.get('idempotency-key'),
      auth: input.headers.get('authorization'),
      body: await input.text(),
    });
    const next = answers.shift();
    if (!next) throw new Error('no more answers');
    if (next instanceof Error) throw next;
    return next;
  };
  return { fetch, sent };
}

const noSleep = async () => undefined;

describe('retryingFetch', () => {
  it('gives a POST a key and sends it again under the same key after a network error and a 409 in progress', async () => {
    const { fetch, sent } = scripted(new TypeError('fetch failed'), inProgress(), json(200, { id: 'p1' }));
    const send = retryingFetch({ fetch, sleep: noSleep, newIdempotencyKey: () => 'key-1' });
    const answer = await send(new Request('http://x/v1/payment/purchase', { method: 'POST', body: '{"a":1}' }));
    expect(await answer.json()).toEqual({ id: 'p1' });
    expect(sent.map((s) => [s.key, s.body])).toEqual([
      ['key-1', '{"a":1}'],
      ['key-1', '{"a":1}'],
      ['key-1', '{"a":1}'],
    ]);
  });

  it('keeps a key the caller set, and stops after the bounded attempts with the last answer', async () => {
    const { fetch, sent } = scripted(inProgress(), inProgress(), inProgress(), json(200, {}));
    const waits: number[] = [];
    const send = retryingFetch({ fetch, attempts: 3, baseDelayMs: 100, sleep: async (ms) => void waits.push(ms) });
    const request = new Request('http://x/v1/payment/p/refund', {
      method: 'POST',
      body: '{}',
      headers: { 'idempotency-key': 'mine' },
    });
    const answer = await send(request);
    expect(answer.status).toBe(409);
    expect(sent.map((s) => s.key)).toEqual(['mine', 'mine', 'mine']);
    // Retry-After: 1 is not sent by this double, so the doubling backoff applies.
    expect(waits).toEqual([100, 200]);
  });

  it('waits what Retry-After says on a 429, and does not retry other errors or a GET key', async () => {
    const limited = json(429, { error: { code: 'RATE_LIMITED' } }, { 'retry-after': '2' });
    const { fetch, sent } = scripted(limited, json(409, { error: { code: 'INVALID_STATE' } }));
    const waits: number[] = [];
    const send = retryingFetch({ fetch, sleep: async (ms) => void waits.push(ms) });
    const answer = await send(new Request('http://x/v1/payment', { method: 'GET' }));
    expect(answer.status).toBe(409);
    expect(waits).toEqual([2000]);
    expect(sent.map((s) => s.key)).toEqual([null, null]);
  });

  it('gives a PATCH and a DELETE a key too, the same on their retries', async () => {
    const { fetch, sent } = scripted(new TypeError('fetch failed'), json(200, {}), inProgress(), json(200, {}));
    let n = 0;
    const send = retryingFetch({ fetch, sleep: noSleep, newIdempotencyKey: () => `key-${++n}` });
    await send(new Request('http://x/v1/subscription/plan/7', { method: 'PATCH', body: '{"name":"b"}' }));
    await send(new Request('http://x/v1/subscription/plan/7', { method: 'DELETE' }));
    expect(sent.map((s) => [s.method, s.key])).toEqual([
      ['PATCH', 'key-1'],
      ['PATCH', 'key-1'],
      ['DELETE', 'key-2'],
      ['DELETE', 'key-2'],
    ]);
  });

  it('throws the network error when every attempt fails', async () => {
    const { fetch } = scripted(new TypeError('down'), new TypeError('still down'));
    const send = retryingFetch({ fetch, attempts: 2, sleep: noSleep });
    await expect(send(new Request('http://x/v1/ping'))).rejects.toThrow('still down');
  });
});

describe('createPaymentsClient', () => {
  it('sends the key, and unwrap throws the error envelope as a typed error', async () => {
    const declined = json(402, {
      error: { status: 402, code: 'PAYMENT_DECLINED', message: 'declined', requestId: 'r1', paymentId: 'p9' },
    });
    const { fetch, sent } = scripted(declined);
    const client = createPaymentsClient({ apiKey: 'prv_sandbox_x', baseUrl: 'http://gw', fetch });
    const call = unwrap(
      client.POST('/v1/subscription/{id}/retry-payment', { params: { path: { id: 's1' } }, body: {} }),
    );
    const error = await call.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentsApiError);
    expect(error).toMatchObject({ status: 402, code: 'PAYMENT_DECLINED', requestId: 'r1', body: { paymentId: 'p9' } });
    expect(sent[0]).toMatchObject({ url: 'http://gw/v1/subscription/s1/retry-payment', auth: 'Bearer prv_sandbox_x' });
    expect(sent[0].key).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('pages through a list after the last id of each page', async () => {
    const page = (from: number, n: number) =>
      json(
        200,
        Array.from({ length: n }, (_, i) => ({ id: `p${from + i}` })),
      );
    const { fetch, sent } = scripted(page(0, 2), page(2, 2), page(4, 1));
    const client = createPaymentsClient({ apiKey: 'k', baseUrl: 'http://gw', fetch });
    const ids: string[] = [];
    for await (const p of client.paginate('/v1/payment', { query: { limit: 2 } })) ids.push(p.id);
    expect(ids).toEqual(['p0', 'p1', 'p2', 'p3', 'p4']);
    expect(sent.map((s) => new URL(s.url).search)).toEqual([
      '?limit=2',
      '?limit=2&startingAfter=p1',
      '?limit=2&startingAfter=p3',
    ]);
  });
});
