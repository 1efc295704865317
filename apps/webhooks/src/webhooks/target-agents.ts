import { Agent } from 'node:https';
import type { LookupAddress } from 'node:dns';
import { pinnedLookup } from './target-guard';

export interface TargetAgentLimits {
  /** Connections open at once to one target (its agent's maxSockets): the concurrency per endpoint. */
  socketsPerTarget: number;
  /** An idle keep-alive connection is closed after this long (below common servers' 5 s keep-alive). */
  idleMs: number;
  /** Targets whose agents are kept; the least recently used one beyond this is closed. */
  maxTargets: number;
}

export const DEFAULT_AGENT_LIMITS: TargetAgentLimits = { socketsPerTarget: 16, idleMs: 4_000, maxTargets: 256 };

/**
 * Keep-alive HTTPS agents for webhook targets, one per (origin, TLS server name, checked addresses). An agent
 * connects only to the addresses of its key: its `lookup` is pinned to them and an agent's own options take
 * precedence over a request's when Node opens a socket. So a connection, new or reused, always goes to an
 * address that passed the target check of the try that uses it; when a host's DNS answer changes, the next try
 * gets another agent (or is refused before any agent is looked at), never a socket opened for the old answer.
 * Each agent keeps its connections alive and caches TLS sessions, so a new connection to a known target
 * resumes its session instead of a full handshake. Bounded: `maxTargets` agents (least recently used closed
 * first), `socketsPerTarget` sockets each, idle ones closed after `idleMs`.
 */
export class TargetAgents {
  private readonly agents = new Map<string, Agent>();

  constructor(
    private readonly ca: string[] | undefined,
    private readonly limits: TargetAgentLimits = DEFAULT_AGENT_LIMITS,
  ) {}

  /** The agent for a checked target (addresses: the ones its check resolved, in any order). */
  agentFor(origin: string, servername: string, addresses: LookupAddress[]): Agent {
    const pinned = [...addresses].sort((a, b) => a.address.localeCompare(b.address));
    const key = `${origin}|${servername}|${pinned.map((a) => a.address).join(',')}`;
    let agent = this.agents.get(key);
    if (agent) {
      // Most recently used last: the Map's order is the LRU order.
      this.agents.delete(key);
      this.agents.set(key, agent);
      return agent;
    }
    agent = new Agent({
      keepAlive: true,
      maxSockets: this.limits.socketsPerTarget,
      maxFreeSockets: this.limits.socketsPerTarget,
      timeout: this.limits.idleMs,
      scheduling: 'lifo',
      lookup: pinnedLookup(addresses) as never,
      ca: this.ca,
    });
    this.agents.set(key, agent);
    while (this.agents.size > this.limits.maxTargets) {
      const [oldestKey, oldest] = this.agents.entries().next().value as [string, Agent];
      this.agents.delete(oldestKey);
      closeIdle(oldest);
    }
    return agent;
  }

  /** How many targets have an agent (for tests and metrics). */
  get size(): number {
    return this.agents.size;
  }

  /** Closes every connection (at shutdown). */
  destroy(): void {
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }
}

/**
 * An evicted agent closes its idle sockets now; a socket still carrying a request closes when it would next idle
 * (keep-alive off from now on).
 */
function closeIdle(agent: Agent): void {
  (agent as unknown as { keepAlive: boolean }).keepAlive = false;
  for (const sockets of Object.values(agent.freeSockets)) for (const s of sockets ?? []) s.destroy();
}
