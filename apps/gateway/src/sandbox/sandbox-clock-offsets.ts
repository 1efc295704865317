import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Subscription } from 'nats';
import { Logger } from 'pino';
import { GatewaySubjects } from '@app/contracts';
import { NatsClient } from '@app/messaging';
import { LOGGER } from '@app/observability';
import { ClockOffsetCache } from './clock-offset-cache';
import { SandboxClockRepository } from './sandbox-clock.repository';

/** How long a replica trusts a cached offset if it missed an advance's broadcast. */
export const CLOCK_OFFSET_TTL_MS = 5_000;

/**
 * The offset of each merchant's sandbox clock as this replica knows it: from memory on the request path, read
 * from the database at most once per merchant per TTL (concurrent misses share one read), replaced at once on
 * the replica that advanced and dropped on the others when they hear `internal.gateway.sandbox-clock-advanced`.
 * (Cache ages use Date.now(): they are infrastructure time, like the key cache's, not business time.)
 */
@Injectable()
export class SandboxClockOffsets implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly cache = new ClockOffsetCache(CLOCK_OFFSET_TTL_MS);
  private readonly reads = new Map<string, Promise<number>>();
  private subscription?: Subscription;

  constructor(
    private readonly clocks: SandboxClockRepository,
    private readonly nats: NatsClient,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    // Not awaited, as the key revocations: start-up must not wait for NATS just for this.
    this.nats.get().then(
      (nc) => {
        this.subscription = nc.subscribe(GatewaySubjects.sandboxClockAdvanced, {
          callback: (_err, msg) => this.forget(Buffer.from(msg.data).toString('utf8')),
        });
      },
      (e: unknown) => this.logger.warn({ err: e }, 'No sandbox clock broadcasts: NATS unavailable'),
    );
  }

  onApplicationShutdown(): void {
    this.subscription?.unsubscribe();
  }

  /** The cached offset, or undefined when it has to be read. */
  cached(merchantCode: string): number | undefined {
    return this.cache.get(merchantCode, Date.now());
  }

  offsetOf(merchantCode: string): Promise<number> {
    const cached = this.cached(merchantCode);
    if (cached !== undefined) return Promise.resolve(cached);
    let read = this.reads.get(merchantCode);
    if (!read) {
      read = this.read(merchantCode).finally(() => this.reads.delete(merchantCode));
      this.reads.set(merchantCode, read);
    }
    return read;
  }

  /** Straight from the database (and into the cache). */
  async read(merchantCode: string): Promise<number> {
    const epoch = this.cache.epoch();
    const offsetMs = await this.clocks.offsetOf(merchantCode);
    this.cache.set(merchantCode, offsetMs, Date.now(), epoch);
    return offsetMs;
  }

  /**
   * An advance of this merchant committed here: the new offset holds on this replica at once, and the others
   * are told to drop theirs. Flushed before the advance answers, so the broadcast is on its way by then.
   */
  async advanced(merchantCode: string, offsetMs: number): Promise<void> {
    this.forget(merchantCode);
    this.cache.set(merchantCode, offsetMs, Date.now());
    const nc = this.nats.current();
    try {
      if (!nc) throw new Error('NATS is not connected');
      nc.publish(GatewaySubjects.sandboxClockAdvanced, Buffer.from(merchantCode));
      await nc.flush();
    } catch (e) {
      this.logger.warn(
        { err: e, merchantCode },
        'Could not broadcast a sandbox clock advance; other replicas follow within the cache TTL',
      );
    }
  }

  private forget(merchantCode: string): void {
    this.cache.evict(merchantCode);
    this.reads.delete(merchantCode);
  }
}
