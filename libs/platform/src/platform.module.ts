import { DynamicModule, Global, Module } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { ScheduleModule } from '@nestjs/schedule';
import { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { Clock, SandboxOffsetClock, SystemClock } from '@app/clock';
import { databaseHealth, poolGauges } from '@app/database';
import { NatsSettings } from '@app/config';
import { NATS_OPTIONS, NatsClient, NatsOptions, plainNatsWarning } from '@app/messaging';
import {
  DEPENDENCIES_GATE_READINESS,
  Draining,
  HEALTH_CHECKS,
  HealthController,
  LOGGER,
  Metrics,
  MetricsController,
  TracingFlush,
} from '@app/observability';

export interface PlatformOptions {
  app: string;
  /** NATS_URL, NATS_CA_FILE and NATS_NKEY_SEED of the app's configuration (natsSettingsOf). */
  nats: NatsSettings;
  logger: Logger;
  /** The base clock (a test's ManualClock); real time when unset. Sandbox offsets are added on top of it. */
  clock?: Clock;
  /** Whether a dependency that is down makes the app unready (default true; see DEPENDENCIES_GATE_READINESS). */
  dependenciesGateReadiness?: boolean;
  /**
   * Whether the app's HTTP server answers GET /metrics (default true). False: another server of the app serves
   * the registry (the gateway's internal one), so the public listener has no such route at all.
   */
  serveMetrics?: boolean;
}

/**
 * What every app needs: its logger, metrics, NATS client, clock, the health/metrics endpoints and the
 * scheduler its background loops (PeriodicLoop) register with.
 */
const POOL_GAUGES = Symbol('POOL_GAUGES');

/** The app's DataSource once it exists (it is created asynchronously, after this module). */
function dataSourceOf(refs: ModuleRef): DataSource | undefined {
  try {
    return refs.get(DataSource, { strict: false });
  } catch {
    return undefined;
  }
}

@Global()
@Module({})
export class PlatformModule {
  static forRoot(o: PlatformOptions): DynamicModule {
    const nats: NatsOptions = { ...o.nats, name: o.app };
    const plain = plainNatsWarning(nats);
    if (plain) o.logger.warn({ natsUrl: nats.url }, plain);
    return {
      module: PlatformModule,
      imports: [ScheduleModule.forRoot()],
      controllers: o.serveMetrics === false ? [HealthController] : [HealthController, MetricsController],
      providers: [
        { provide: LOGGER, useValue: o.logger },
        { provide: Metrics, useValue: new Metrics(o.app) },
        { provide: NATS_OPTIONS, useValue: nats },
        NatsClient,
        Draining,
        { provide: DEPENDENCIES_GATE_READINESS, useValue: o.dependenciesGateReadiness ?? true },
        TracingFlush,
        { provide: Clock, useValue: new SandboxOffsetClock(o.clock ?? new SystemClock()) },
        {
          provide: POOL_GAUGES,
          inject: [Metrics, ModuleRef],
          useFactory: (metrics: Metrics, refs: ModuleRef) => poolGauges(metrics, () => dataSourceOf(refs)),
        },
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
