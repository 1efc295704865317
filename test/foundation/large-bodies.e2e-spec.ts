import { request } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ApiOperation } from '../support/openapi-routes';
import { TestStack } from '../support/stack';
import { RouteCaller } from './route-caller';

jest.setTimeout(900_000);

const MiB = 1024 * 1024;
const ATTEMPTS = 20;
const SOCKETS = 4;
const CHUNK = Buffer.alloc(64 * 1024, 'x');

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

/**
 * What this process still holds once garbage is collected: the V8 heap and the Buffers outside it, the least of
 * a few samples over half a second, so that work the stack's loops and relays have in hand at one instant does
 * not count as kept. Resident set size would not do: the allocator keeps freed pages, so it moves with the
 * host's load and not with what the gateway keeps.
 */
async function retained(): Promise<number> {
  let least = Infinity;
  for (let i = 0; i < 5; i++) {
    if (i) await new Promise((r) => setTimeout(r, 100));
    collect();
    const m = process.memoryUsage();
    least = Math.min(least, m.heapUsed + m.arrayBuffers);
  }
  return least;
}

interface Outcome {
  status?: number;
  code?: string;
  requestIdMatches?: boolean;
  error?: string;
}

/**
 * A real client: writes the body in 64 KiB chunks as fast as the server takes them (with Content-Length, or
 * chunked), and reads the answer whenever it comes. A reset or a broken pipe before an answer is a failure.
 */
function postLarge(url: string, path: string, size: number, chunked: boolean, key?: string): Promise<Outcome> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (o: Outcome) => {
      if (!settled) resolve(o);
      settled = true;
    };
    const headers: Record<string, string | number> = { 'content-type': 'application/json' };
    if (!chunked) headers['content-length'] = size;
    if (key) headers.authorization = `Bearer ${key}`;
    const req = request(`${url}${path}`, { method: 'POST', headers, agent: false });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('error', (e: NodeJS.ErrnoException) => settle({ status: res.statusCode, error: e.code ?? e.message }));
      res.on('end', () => {
        try {
          const error = JSON.parse(text).error;
          settle({
            status: res.statusCode,
            code: error?.code,
            requestIdMatches: error?.requestId === res.headers['x-request-id'],
          });
        } catch {
          settle({ status: res.statusCode, error: `not JSON: ${text.slice(0, 100)}` });
        }
      });
    });
    req.on('error', (e: NodeJS.ErrnoException) => settle({ error: e.code ?? e.message }));
    let sent = 0;
    const pump = () => {
      while (sent < size) {
        const n = Math.min(CHUNK.length, size - sent);
        sent += n;
        if (!req.write(n === CHUNK.length ? CHUNK : CHUNK.subarray(0, n))) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
}

/** Runs the jobs on a few sockets at a time. */
async function onSockets<T>(jobs: (() => Promise<T>)[]): Promise<T[]> {
  const out: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: SOCKETS }, async () => {
      while (next < jobs.length) {
        const i = next++;
        out[i] = await jobs[i]();
      }
    }),
  );
  return out;
}

describe('bodies over the limit: every sender reads 413', () => {
  let caller: RouteCaller;
  let stack: TestStack;
  let posts: ApiOperation[];

  beforeAll(async () => {
    caller = await RouteCaller.start();
    stack = caller.stack;
    posts = caller.operations.filter((o) => o.method === 'POST');
  });
  afterAll(() => stack.stop());

  it('covers every POST route of /openapi.json', () => {
    expect(posts.length).toBeGreaterThan(30);
    expect(posts.map((o) => o.path)).toEqual(
      expect.arrayContaining(['/v1/payment/{id}/cancel', '/v1/payment/purchase', '/v1/checkout/{id}/pay']),
    );
  });

  it.each([
    ['2 MiB', 2 * MiB],
    ['20 MiB', 20 * MiB],
  ])('%s on every POST route, 20 times each: every attempt reads 413 PAYLOAD_TOO_LARGE', async (_, size) => {
    const before = await retained();
    const jobs = posts.flatMap((o) =>
      Array.from({ length: ATTEMPTS }, (__, i) => async () => {
        const path = caller.pathOf(o);
        const url = o.port === 'internal' ? stack.adminUrl : stack.url;
        const outcome = await postLarge(url, path, size, i % 2 === 1, caller.credential(o));
        return { route: `${o.method} ${o.path}`, chunked: i % 2 === 1, ...outcome };
      }),
    );
    const outcomes = await onSockets(jobs);
    const wrong = outcomes.filter((o) => o.status !== 413 || o.code !== 'PAYLOAD_TOO_LARGE' || !o.requestIdMatches);
    expect(wrong).toEqual([]);
    expect(outcomes).toHaveLength(posts.length * ATTEMPTS);
    // Refused bodies are read and dropped as they come, never kept, though gigabytes went through.
    expect((await retained()) - before).toBeLessThan(32 * MiB);
  });

  it('the gateway still answers normally afterwards', async () => {
    const r = await stack.http('GET', `/v1/ping?merchantCode=${caller.merchantCode}`, { key: caller.key });
    expect(r.status).toBe(200);
  });
});
