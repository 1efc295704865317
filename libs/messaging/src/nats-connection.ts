import { accessSync, constants } from 'node:fs';
import { Inject, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { connect, ConnectionOptions, NatsConnection, nkeyAuthenticator } from 'nats';
import { natsTlsRequired } from '@app/config';
import { inboxPrefixOf } from '@app/contracts';
import { HealthCheck } from '@app/observability';
import { coalesceNatsWrites } from './coalesce-writes';
import { settleNatsRequestsQuietly } from './settled-requests';

export const NATS_OPTIONS = Symbol('NATS_OPTIONS');
export interface NatsOptions {
  url: string;
  /** The app's name: its connection name and the prefix of its reply inbox (which its NATS user may read). */
  name: string;
  /** CA of the server's certificate; set (or tls:// URLs), the connection is TLS only and verifies the server. */
  caFile?: string;
  /** The app's user nkey seed: its credential. */
  nkeySeed?: string;
}

/** The connect options of `o`'s identity and transport: TLS when asked for, the app's nkey, its own inbox. */
export function natsConnectOptions(o: NatsOptions): ConnectionOptions {
  if (o.caFile) {
    try {
      accessSync(o.caFile, constants.R_OK);
    } catch {
      throw new Error(`NATS_CA_FILE names a file that cannot be read: ${o.caFile}`);
    }
  }
  return {
    servers: o.url.split(',').map((s) => s.trim()),
    name: o.name,
    inboxPrefix: inboxPrefixOf(o.name),
    ...(natsTlsRequired(o.url, o.caFile) ? { tls: o.caFile ? { caFile: o.caFile } : {} } : {}),
    ...(o.nkeySeed ? { authenticator: nkeyAuthenticator(new TextEncoder().encode(o.nkeySeed)) } : {}),
  };
}

/** Outside production a plain, unauthenticated connection is allowed; this is the line an app logs then. */
export function plainNatsWarning(o: NatsOptions): string | undefined {
  if (o.nkeySeed || natsTlsRequired(o.url, o.caFile)) return undefined;
  return 'NATS connection is unauthenticated and unencrypted: development only (production needs NATS_NKEY_SEED and TLS)';
}

/**
 * The app's one NATS connection: command requests (gateway), command subscriptions (services, through the
 * CommandServer) and JetStream publishing and consuming. The two patches of nats.js internals are applied and
 * checked when the app starts: if the installed nats no longer has what they replace, the app does not start.
 */
@Injectable()
export class NatsClient implements OnModuleInit, OnApplicationShutdown {
  private connection?: NatsConnection;
  private connecting?: Promise<NatsConnection>;
  /** False from a 'disconnect' status until the next 'reconnect': what is sent meanwhile waits in a buffer. */
  private up = false;

  constructor(@Inject(NATS_OPTIONS) private readonly options: NatsOptions) {}

  onModuleInit(): void {
    patchNats();
  }

  async get(): Promise<NatsConnection> {
    if (this.connection && !this.connection.isClosed()) return this.connection;
    patchNats();
    this.connecting ??= connect({
      ...natsConnectOptions(this.options),
      reconnect: true,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 250,
      waitOnFirstConnect: true,
      // Two Errors with stack traces per request otherwise (~7% of gateway CPU in the bench).
      noAsyncTraces: true,
    }).then(
      (c) => {
        this.connection = c;
        this.connecting = undefined;
        this.up = true;
        void this.watch(c);
        return c;
      },
      (e) => {
        this.connecting = undefined;
        throw e;
      },
    );
    return this.connecting;
  }

  /** The connection if it is already up; request paths use it to avoid an await per call. */
  current(): NatsConnection | undefined {
    return this.connection && !this.connection.isClosed() ? this.connection : undefined;
  }

  /** Whether the connection is up now (connected, not reconnecting): a request sent now reaches the server. */
  connected(): boolean {
    return this.up && this.current() !== undefined;
  }

  private async watch(c: NatsConnection): Promise<void> {
    for await (const s of c.status()) {
      if (s.type === 'disconnect') this.up = false;
      else if (s.type === 'reconnect') this.up = true;
    }
  }

  health(): HealthCheck {
    return {
      name: 'nats',
      check: async () => {
        const nc = await this.get();
        await nc.flush();
      },
    };
  }

  async onApplicationShutdown(): Promise<void> {
    const c = this.connection;
    this.connection = undefined;
    if (c && !c.isClosed()) await c.drain().catch(() => c.close());
  }
}

/** Both patches of nats.js internals (each is applied once); throws a NatsPatchError if nats changed. */
function patchNats(): void {
  coalesceNatsWrites();
  settleNatsRequestsQuietly();
}
