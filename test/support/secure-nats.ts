import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, nkeyAuthenticator } from 'nats';
import { inboxPrefixOf, NATS_APPS, NatsApp } from '@app/contracts';
import { runState } from './run-state';

/** A user nkey: the seed the app holds and the public key the server knows. */
export interface NkeyPair {
  seed: string;
  publicKey: string;
}
interface Prepared {
  url: string;
  configFile: string;
  caFile: string;
  keys: Record<NatsApp, NkeyPair>;
  serverEnv: Record<string, string>;
  envOf(app: NatsApp): Record<string, string>;
}

const secure = require('../../bench/lib/secure-nats') as {
  APPS: string[];
  newNkey(): NkeyPair;
  prepareSecureNats(dir: string, port: number): Prepared;
};
// Every app of the committed authorization.conf needs a key (the server refuses a config naming an unset one).
const unkeyed = NATS_APPS.filter((app) => !secure.APPS.includes(app));
if (unkeyed.length) throw new Error(`bench/lib/secure-nats.js APPS lacks ${unkeyed.join(', ')}`);
const { freePort } = require('../../bench/lib/procs') as { freePort(): Promise<number> };

export const newNkey = secure.newNkey;

/**
 * A nats-server of its own, configured as k8s/nats and docker-compose.yml run it (bench/lib/secure-nats.js):
 * TLS with a CA made for the test, JetStream in a temporary store, the committed authorization.conf with a fresh
 * nkey per app. `url` is tls://127.0.0.1:<port>; the apps verify the server with `caFile`.
 */
export class SecureNats {
  private constructor(
    private readonly prepared: Prepared,
    readonly port: number,
    private readonly dir: string,
    private readonly child: ChildProcess,
  ) {}

  get url(): string {
    return this.prepared.url;
  }

  get caFile(): string {
    return this.prepared.caFile;
  }

  get keys(): Record<NatsApp, NkeyPair> {
    return this.prepared.keys;
  }

  static async start(): Promise<SecureNats> {
    const binary = runState().natsBinary ?? '/usr/sbin/nats-server';
    const dir = mkdtempSync(join(tmpdir(), 'nats-secure-'));
    const port = await freePort();
    const prepared = secure.prepareSecureNats(dir, port);
    const child = spawn(binary, ['-c', prepared.configFile], {
      env: { ...process.env, ...prepared.serverEnv },
      stdio: 'ignore',
    });
    const server = new SecureNats(prepared, port, dir, child);
    await server.waitUntilUp();
    return server;
  }

  /** The settings an app connects with: the server, its CA and the app's own seed. */
  envOf(app: NatsApp): Record<string, string> {
    return this.prepared.envOf(app);
  }

  /** A client as `app`, verifying the server with the test CA. */
  connectAs(app: NatsApp) {
    return connect({
      servers: this.url,
      tls: { caFile: this.caFile },
      authenticator: nkeyAuthenticator(new TextEncoder().encode(this.keys[app].seed)),
      inboxPrefix: inboxPrefixOf(app),
      reconnect: false,
      timeout: 3000,
    });
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null) {
      const exited = new Promise((resolve) => this.child.once('exit', resolve));
      this.child.kill('SIGTERM');
      await exited;
    }
    rmSync(this.dir, { recursive: true, force: true });
  }

  private async waitUntilUp(): Promise<void> {
    let last: unknown;
    for (let i = 0; i < 100; i++) {
      if (this.child.exitCode !== null) throw new Error(`nats-server exited with ${this.child.exitCode}`);
      try {
        const nc = await this.connectAs('payments');
        await nc.close();
        return;
      } catch (e) {
        last = e;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    throw new Error(`the TLS nats-server does not answer: ${String(last)}`);
  }
}
