import type { LookupAddress } from 'node:dns';
import { TargetAgents } from './target-agents';

const v4 = (address: string): LookupAddress => ({ address, family: 4 });

describe('keep-alive agents per checked target', () => {
  let agents: TargetAgents;
  beforeEach(() => {
    agents = new TargetAgents(undefined, { socketsPerTarget: 4, idleMs: 1_000, maxTargets: 2 });
  });
  afterEach(() => agents.destroy());

  it('gives one agent to one origin, server name and set of addresses, in whatever order DNS answers them', () => {
    const a = agents.agentFor('https://shop.example', 'shop.example', [v4('93.184.216.34'), v4('93.184.216.35')]);
    const b = agents.agentFor('https://shop.example', 'shop.example', [v4('93.184.216.35'), v4('93.184.216.34')]);
    expect(b).toBe(a);
    expect(a.maxSockets).toBe(4);
    expect(a.options).toMatchObject({ keepAlive: true, timeout: 1_000 });
  });

  it('gives another agent when the checked addresses, the origin or the server name differ', () => {
    const a = agents.agentFor('https://shop.example', 'shop.example', [v4('93.184.216.34')]);
    expect(agents.agentFor('https://shop.example', 'shop.example', [v4('93.184.216.35')])).not.toBe(a);
    expect(agents.agentFor('https://shop.example:8443', 'shop.example', [v4('93.184.216.34')])).not.toBe(a);
    expect(agents.agentFor('https://shop.example', 'other.example', [v4('93.184.216.34')])).not.toBe(a);
  });

  it("pins an agent's lookup to its own addresses, whatever host a request names", (done) => {
    const agent = agents.agentFor('https://shop.example', 'shop.example', [v4('93.184.216.34')]);
    const lookup = (agent.options as { lookup: (h: string, o: object, cb: (...a: unknown[]) => void) => void }).lookup;
    lookup('metadata.internal', { all: true }, (err, addresses) => {
      expect(err).toBeNull();
      expect(addresses).toEqual([v4('93.184.216.34')]);
      done();
    });
  });

  it('keeps at most maxTargets agents, closing the least recently used', () => {
    const a = agents.agentFor('https://a.example', 'a.example', [v4('93.184.216.1')]);
    const b = agents.agentFor('https://b.example', 'b.example', [v4('93.184.216.2')]);
    // a is used again: b is now the least recently used.
    expect(agents.agentFor('https://a.example', 'a.example', [v4('93.184.216.1')])).toBe(a);
    agents.agentFor('https://c.example', 'c.example', [v4('93.184.216.3')]);
    expect(agents.size).toBe(2);
    expect(agents.agentFor('https://a.example', 'a.example', [v4('93.184.216.1')])).toBe(a);
    // b was closed when evicted (keeps no socket alive any more); asking for it again makes a new one.
    expect((b as unknown as { keepAlive: boolean }).keepAlive).toBe(false);
    expect((a as unknown as { keepAlive: boolean }).keepAlive).toBe(true);
    expect(agents.agentFor('https://b.example', 'b.example', [v4('93.184.216.2')])).not.toBe(b);
    expect(agents.size).toBe(2);
  });
});
