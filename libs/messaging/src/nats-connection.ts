import { Inject, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { connect, NatsConnection } from 'nats';
import { HealthCheck } from '@app/observability';
import { coalesceNatsWrites } from './coalesce-writes';
import { settleNatsRequestsQuietly } from './settled-requests';

export const NATS_OPTIONS = Symbol('NATS_OPTIONS');
export interface NatsOptions {
  url: string;
  name: string;
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
      servers: this.options.url.split(','),
      name: this.options.name,
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
