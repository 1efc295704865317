import { DynamicModule, Global, Module } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { ScheduleModule } from '@nestjs/schedule';
import { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { Clock, SandboxOffsetClock, SystemClock } from '@app/clock';
import { databaseHealth } from '@app/database';
import { NATS_OPTIONS, NatsClient } from '@app/messaging';
import { Draining, HEALTH_CHECKS, HealthController, LOGGER, Metrics, TracingFlush } from '@app/observability';

export interface PlatformOptions {
  app: string;
  natsUrl: string;
  logger: Logger;
  /** The base clock (a test's ManualClock); real time when unset. Sandbox offsets are added on top of it. */
  clock?: Clock;
}

/**
 * What every app needs: its logger, metrics, NATS client, clock, the health/metrics endpoints and the
 * scheduler its background loops (PeriodicLoop) register with.
 */
@Global()
@Module({})
export class PlatformModule {
  static forRoot(o: PlatformOptions): DynamicModule {
    return {
      module: PlatformModule,
      imports: [ScheduleModule.forRoot()],
      controllers: [HealthController],
      providers: [
        { provide: LOGGER, useValue: o.logger },
        { provide: Metrics, useValue: new Metrics(o.app) },
        { provide: NATS_OPTIONS, useValue: { url: o.natsUrl, name: o.app } },
        NatsClient,
        Draining,
        TracingFlush,
        { provide: Clock, useValue: new SandboxOffsetClock(o.clock ?? new SystemClock()) },
        {
          provide: HEALTH_CHECKS,
          inject: [NatsClient, ModuleRef],
          // The DataSource is created asynchronously: look it up when checked, not now.
          useFactory: (nats: NatsClient, refs: ModuleRef) => [
            databaseHealth(() => refs.get(DataSource, { strict: false })),
            nats.health(),
          ],
        },
      ],
      exports: [LOGGER, Metrics, NatsClient, Clock, Draining],
    };
  }
}
