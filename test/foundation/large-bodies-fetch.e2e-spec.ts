import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ApiOperation } from '../support/openapi-routes';
import { TestStack } from '../support/stack';
import { RouteCaller } from './route-caller';

jest.setTimeout(600_000);

const MiB = 1024 * 1024;
const ATTEMPTS = 20;
const CLIENT = join(__dirname, '../support/fetch-client.js');
/** One route per kind of caller and per place the work goes: a service, the gateway itself, the admin port. */
const REPRESENTATIVE = ['/v1/payment/purchase', '/v1/webhook-endpoint', '/v1/checkout/{id}/pay', '/v1/admin/merchants'];
const SIZES: [string, number][] = [
  ['2 MiB', 2 * MiB],
  ['8 MiB', 8 * MiB],
];
type Credential = 'a valid credential' | 'an unknown key' | 'no key';
const CREDENTIALS: Credential[] = ['a valid credential', 'an unknown key', 'no key'];

interface Job {
  url: string;
  size: number;
  authorization?: string;
  chunked: boolean;
}
interface Outcome {
  status?: number;
  code?: string;
  requestIdMatches?: boolean;
  error?: string;
}

/** Runs the jobs in a Node `fetch` client of its own process (test/support/fetch-client.js). */
function fetchClient(jobs: Job[]): Promise<Outcome[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLIENT], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`fetch client: ${code}`))));
    child.stdin.end(JSON.stringify(jobs));
  });
}

describe('bodies over the limit, sent by a Node fetch client: every attempt reads the answer', () => {
  let caller: RouteCaller;
  let stack: TestStack;
  let posts: ApiOperation[];

  beforeAll(async () => {
    caller = await RouteCaller.start();
    stack = caller.stack;
    posts = caller.operations.filter((o) => o.method === 'POST');
  });
  afterAll(() => stack.stop());

  const authorization = (o: ApiOperation, credential: Credential): string | undefined =>
    ({
      'a valid credential': `Bearer ${caller.credential(o)}`,
      'an unknown key': 'Bearer sk_sandbox_0123456789abcdef0123456789abcdef',
      'no key': undefined,
    })[credential];
  const job = (o: ApiOperation, size: number, credential: Credential, chunked: boolean): Job => {
    const path = caller.pathOf(o);
    return {
      url: `${o.port === 'internal' ? stack.adminUrl : stack.url}${path}`,
      size,
      authorization: authorization(o, credential),
      chunked,
    };
  };
  const wrong = (outcomes: Outcome[], status: number, code: string) =>
    outcomes.map((o, i) => ({ i, ...o })).filter((o) => o.status !== status || o.code !== code || !o.requestIdMatches);

  it('the representative routes are POST routes of /openapi.json', () => {
    expect(posts.map((o) => o.path)).toEqual(expect.arrayContaining(REPRESENTATIVE));
  });

  describe.each(SIZES)('%s', (_, size) => {
    it.each(CREDENTIALS)(
      `with %s, ${ATTEMPTS} times on each representative route: 413 each time`,
      async (credential) => {
        const rssBefore = process.memoryUsage().rss;
        const routes = posts.filter((o) => REPRESENTATIVE.includes(o.path));
        const jobs = routes.flatMap((o) =>
          Array.from({ length: ATTEMPTS }, (__, i) => job(o, size, credential, i % 2 === 1)),
        );
        const outcomes = await fetchClient(jobs);
        expect(outcomes).toHaveLength(REPRESENTATIVE.length * ATTEMPTS);
        expect(wrong(outcomes, 413, 'PAYLOAD_TOO_LARGE')).toEqual([]);
        // Refused bodies are read and dropped as they come, never held.
        expect(process.memoryUsage().rss - rssBefore).toBeLessThan(200 * MiB);
      },
    );

    it.each(CREDENTIALS)('with %s, once on every POST route: 413', async (credential) => {
      const outcomes = await fetchClient(posts.map((o, i) => job(o, size, credential, i % 2 === 1)));
      const failed = wrong(outcomes, 413, 'PAYLOAD_TOO_LARGE').map((o) => ({ ...o, route: posts[o.i].path }));
      expect(failed).toEqual([]);
    });
  });

  it('the gateway still answers normally afterwards', async () => {
    const r = await stack.http('GET', `/v1/ping?merchantCode=${caller.merchantCode}`, { key: caller.key });
    expect(r.status).toBe(200);
  });
});
