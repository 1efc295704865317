import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'nats';
import { freePort } from './ports';
import { waitUntil } from './wait';

const NATS_BINARIES = ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'];

export interface NatsNode {
  name: string;
  url: string;
  storeDir: string;
  child: ChildProcess;
  /** The command line it was started with (a restart uses it again). */
  command: string[];
}

export interface StreamPlacement {
  leader?: string;
  replicas: Array<{ name: string; current: boolean }>;
}

const run = (command: string[]): ChildProcess => spawn(command[0], command.slice(1), { stdio: 'ignore' });

/**
 * Three nats-server processes in one cluster (routes between them, JetStream on a store directory each), on
 * temporary ports, as k8s/nats runs them.
 */
export class NatsCluster {
  private constructor(
    readonly nodes: NatsNode[],
    private readonly base: string,
  ) {}

  static async start(size = 3): Promise<NatsCluster> {
    const binary = NATS_BINARIES.find((b) => existsSync(b));
    if (!binary) throw new Error(`no nats-server binary in ${NATS_BINARIES.join(', ')}`);
    const base = mkdtempSync(join(tmpdir(), 'nats-cluster-'));
    const ports = [];
    for (let i = 0; i < size; i++) ports.push({ client: await freePort(), cluster: await freePort() });
    const routes = ports.map((p) => `nats://127.0.0.1:${p.cluster}`).join(',');
    const nodes = ports.map((p, i): NatsNode => {
      const name = `n${i + 1}`;
      const storeDir = join(base, name);
      const command = [binary, '-a', '127.0.0.1', '-p', String(p.client), '-n', name, '-js', '-sd', storeDir].concat([
        '--cluster_name',
        'failover',
        '--cluster',
        `nats://127.0.0.1:${p.cluster}`,
        '--routes',
        routes,
      ]);
      return { name, url: `nats://127.0.0.1:${p.client}`, storeDir, command, child: run(command) };
    });
    const cluster = new NatsCluster(nodes, base);
    try {
      await waitUntil('the JetStream cluster has a meta leader', () => cluster.jetStreamReady(), 60_000);
      return cluster;
    } catch (e) {
      await cluster.stop();
      throw e;
    }
  }

  private live(): NatsNode[] {
    return this.nodes.filter((n) => n.child.exitCode === null && n.child.signalCode === null);
  }

  /** Every server's client URL, comma-separated: the NATS_URL the apps get. */
  get url(): string {
    return this.nodes.map((n) => n.url).join(',');
  }

  async jetStreamReady(): Promise<boolean> {
    try {
      const nc = await connect({ servers: this.live().map((n) => n.url), timeout: 1_000 });
      try {
        await (await nc.jetstreamManager()).getAccountInfo();
        return true;
      } finally {
        await nc.close();
      }
    } catch {
      return false;
    }
  }

  /**
   * Where a stream, or one of its consumers when `consumer` names it, lives: its leader and other replicas, once
   * the cluster answers (a new leader may take a while).
   */
  async placement(stream: string, consumer?: string, timeoutMs = 30_000): Promise<StreamPlacement> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        return await this.info(stream, consumer);
      } catch (e) {
        if (Date.now() > deadline) throw e;
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  }

  private async info(stream: string, consumer?: string): Promise<StreamPlacement> {
    const nc = await connect({ servers: this.live().map((n) => n.url), timeout: 2_000 });
    try {
      const jsm = await nc.jetstreamManager();
      const { cluster } = consumer ? await jsm.consumers.info(stream, consumer) : await jsm.streams.info(stream);
      return {
        leader: cluster?.leader,
        replicas: (cluster?.replicas ?? []).map((r) => ({ name: r.name, current: r.current })),
      };
    } finally {
      await nc.close();
    }
  }

  private node(name: string): NatsNode {
    const node = this.nodes.find((n) => n.name === name);
    if (!node) throw new Error(`no server ${name}`);
    return node;
  }

  /** SIGKILLs one server; `deleteStore`: and deletes its store directory (a pod rescheduled without its volume). */
  async kill(name: string, o: { deleteStore: boolean }): Promise<void> {
    const node = this.node(name);
    if (node.child.exitCode === null && node.child.signalCode === null) {
      const exited = new Promise((resolve) => node.child.once('exit', resolve));
      node.child.kill('SIGKILL');
      await exited;
    }
    if (o.deleteStore) rmSync(node.storeDir, { recursive: true, force: true });
  }

  /** Starts a killed server again on its port and store (a pod restarted with its volume). */
  restart(name: string): void {
    const node = this.node(name);
    node.child = run(node.command);
  }

  async stop(): Promise<void> {
    for (const node of this.nodes) {
      if (node.child.exitCode !== null || node.child.signalCode !== null) continue;
      const exited = new Promise((resolve) => node.child.once('exit', resolve));
      node.child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
      if (node.child.exitCode === null && node.child.signalCode === null) node.child.kill('SIGKILL');
    }
    rmSync(this.base, { recursive: true, force: true });
  }
}
