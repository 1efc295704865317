import { ReadinessBalancer } from '../support/balancer';
import { AppProcess, ensureBuild, errorLines, ProcessSuite } from '../support/processes';
import { sleep, waitUntil } from '../support/wait';
import { sandboxKey } from './drain-helpers';

/** How often the balancer polls readiness; SHUTDOWN_DELAY_MS below gives it several polls to see a gateway go. */
const POLL_MS = 200;
const DELAY_MS = 1_000;
const CLIENTS = 8;

interface Tally {
  ok: number;
  lost: string[];
}

/** CLIENTS loops of GET /v1/ping through the balancer until `stop()`: every answer but a 200 is lost. */
function load(url: string, key: string): { stop(): Promise<Tally> } {
  const tally: Tally = { ok: 0, lost: [] };
  let running = true;
  const client = async () => {
    while (running) {
      try {
        const res = await fetch(`${url}/v1/ping?service=payments`, { headers: { authorization: `Bearer ${key}` } });
        await res.arrayBuffer();
        if (res.status === 200) tally.ok++;
        else tally.lost.push(`${res.status} ${res.headers.get('x-balancer-error') ?? ''}`.trim());
      } catch (e) {
        tally.lost.push(`client: ${(e as Error).message}`);
      }
    }
  };
  const clients = Array.from({ length: CLIENTS }, client);
  return {
    async stop() {
      running = false;
      await Promise.all(clients);
      return tally;
    },
  };
}

/**
 * Two gateways behind a balancer that routes by readiness, as outside Kubernetes (compose plus a proxy with
 * health checks): nothing pauses before SIGTERM, so the gateway itself must stay up, unready, for
 * SHUTDOWN_DELAY_MS before it closes its listener. A rolling restart under load (a new gateway joins, an old one
 * gets SIGTERM, twice) then loses no request; without the delay, requests sent before the balancer's next poll
 * are refused.
 */
describe('rolling restart of two gateways behind a readiness-routing balancer, real processes', () => {
  let suite: ProcessSuite;
  let key: string;
  let run = 0;

  beforeAll(async () => {
    ensureBuild();
    suite = await ProcessSuite.start({ apps: ['gateway', 'payments'] });
    await suite.startApp('payments');
    const first = await suite.startApp('gateway', { name: 'gateway-setup' });
    key = (await sandboxKey(first)).key;
    first.entry.child.kill('SIGTERM');
    await first.ended;
  }, 300_000);
  afterAll(async () => {
    await suite?.stop();
  }, 60_000);

  async function rollingRestart(delayMs: number): Promise<{ tally: Tally; stopped: AppProcess[] }> {
    run++;
    const env = { SHUTDOWN_DELAY_MS: String(delayMs), SHUTDOWN_TIMEOUT_MS: '10000' };
    const balancer = await ReadinessBalancer.start({ pollMs: POLL_MS });
    try {
      // The two old gateways start together; each new one starts under load, as in a rollout.
      const old = await Promise.all(
        ['old-a', 'old-b'].map((n) => suite.startApp('gateway', { name: `r${run}-${n}`, env })),
      );
      for (const g of old) balancer.add(g.url);
      await waitUntil('both gateways are ready', async () => balancer.readyUrls().length === 2, 10_000);
      const traffic = load(balancer.url, key);
      await sleep(500);
      for (const [i, g] of old.entries()) {
        const fresh = await suite.startApp('gateway', { name: `r${run}-new-${i}`, env });
        balancer.add(fresh.url);
        await waitUntil(
          `${fresh.name} is ready`,
          async () => balancer.readyUrls().includes(new URL(fresh.url).origin),
          10_000,
        );
        g.entry.child.kill('SIGTERM');
        const { exit } = await g.ended;
        expect([g.name, exit]).toEqual([g.name, 0]);
      }
      await sleep(500);
      return { tally: await traffic.stop(), stopped: old };
    } finally {
      await balancer.stop();
    }
  }

  it('with SHUTDOWN_DELAY_MS: no request lost, and each old gateway stops cleanly', async () => {
    const { tally, stopped } = await rollingRestart(DELAY_MS);
    process.stdout.write(
      `rolling restart with SHUTDOWN_DELAY_MS=${DELAY_MS}: ${tally.ok} answered, ${tally.lost.length} lost\n`,
    );
    expect(tally.lost).toEqual([]);
    expect(tally.ok).toBeGreaterThan(200);
    for (const g of stopped) {
      const lines = g.logLines();
      const stopping = lines.find((l) => l.msg === 'stopping');
      expect(stopping).toMatchObject({ delayMs: DELAY_MS });
      expect(errorLines(lines)).toEqual([]);
    }
  }, 180_000);

  it('without it (0, the default outside compose): requests routed before the next readiness poll are refused', async () => {
    const { tally } = await rollingRestart(0);
    process.stdout.write(`rolling restart with SHUTDOWN_DELAY_MS=0: ${tally.ok} answered, ${tally.lost.length} lost\n`);
    expect(tally.ok).toBeGreaterThan(200);
    expect(tally.lost.length).toBeGreaterThan(0);
    expect(tally.lost.every((l) => /^502 (ECONNREFUSED|ECONNRESET)$/.test(l))).toBe(true);
  }, 180_000);
});
