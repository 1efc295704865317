import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, nkeyAuthenticator, nkeys } from 'nats';
import { NATS_APPS, NatsApp } from '@app/contracts';
import { runState } from './run-state';

const { OUTPUT: AUTHORIZATION, nkeyVariableOf } = require('../../scripts/nats-config.js') as {
  OUTPUT: string;
  nkeyVariableOf(app: string): string;
};
const { freePort } = require('../../bench/lib/procs') as { freePort(): Promise<number> };

/** A user nkey: the seed the app holds and the public key the server knows. */
export interface NkeyPair {
  seed: string;
  publicKey: string;
}

export const newNkey = (): NkeyPair => {
  const user = nkeys.createUser();
  return { seed: Buffer.from(user.getSeed()).toString(), publicKey: user.getPublicKey() };
};

/**
 * A nats-server of its own, configured as k8s/ and docker-compose.yml run it: TLS with a certificate of a CA
 * made for the test (openssl), JetStream in a temporary store, and the committed authorization.conf with a
 * fresh nkey per app. `url` is tls://127.0.0.1:<port>; the apps verify the server with `caFile`.
 */
export class SecureNats {
  private constructor(
    readonly url: string,
    readonly port: number,
    readonly caFile: string,
    readonly keys: Record<NatsApp, NkeyPair>,
    private readonly dir: string,
    private readonly child: ChildProcess,
  ) {}

  static async start(): Promise<SecureNats> {
    const binary = runState().natsBinary ?? '/usr/sbin/nats-server';
    const dir = mkdtempSync(join(tmpdir(), 'nats-secure-'));
    const file = (name: string) => join(dir, name);
    makeCertificates(dir);
    copyFileSync(AUTHORIZATION, file('authorization.conf'));
    const keys = Object.fromEntries(NATS_APPS.map((app) => [app, newNkey()])) as Record<NatsApp, NkeyPair>;
    const port = await freePort();
    writeFileSync(
      file('nats.conf'),
      [
        `listen: "127.0.0.1:${port}"`,
        `server_name: "secure-${port}"`,
        `jetstream { store_dir: ${JSON.stringify(file('store'))} }`,
        `tls { cert_file: ${JSON.stringify(file('server.crt'))}, key_file: ${JSON.stringify(file('server.key'))} }`,
        'include ./authorization.conf',
        '',
      ].join('\n'),
    );
    const env = { ...process.env, ...Object.fromEntries(NATS_APPS.map((a) => [nkeyVariableOf(a), keys[a].publicKey])) };
    const child = spawn(binary, ['-c', file('nats.conf')], { env, stdio: 'ignore' });
    const server = new SecureNats(`tls://127.0.0.1:${port}`, port, file('ca.crt'), keys, dir, child);
    await server.waitUntilUp();
    return server;
  }

  /** The settings an app connects with: the server, its CA and the app's own seed. */
  envOf(app: NatsApp): Record<string, string> {
    return { NATS_URL: this.url, NATS_CA_FILE: this.caFile, NATS_NKEY_SEED: this.keys[app].seed };
  }

  /** A client as `app`, verifying the server with the test CA. */
  connectAs(app: NatsApp, extra: Record<string, unknown> = {}) {
    return connect({
      servers: this.url,
      tls: { caFile: this.caFile },
      authenticator: nkeyAuthenticator(new TextEncoder().encode(this.keys[app].seed)),
      inboxPrefix: `_INBOX.${app}`,
      reconnect: false,
      timeout: 3000,
      ...extra,
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

/** A CA and a server certificate for 127.0.0.1 and localhost signed by it (ca.crt, server.crt, server.key). */
function makeCertificates(dir: string): void {
  const run = (args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  run(['req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '1', '-subj', '/CN=test NATS CA']);
  run(['req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost']);
  writeFileSync(join(dir, 'server.ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\n');
  run([
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.crt',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'server.crt',
    '-days',
    '1',
    '-extfile',
    'server.ext',
  ]);
}
