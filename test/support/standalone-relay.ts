import { ScheduleModule } from '@nestjs/schedule';
import { Test } from '@nestjs/testing';
import pino from 'pino';
import { DataSource } from 'typeorm';
import { NatsClient } from '@app/messaging';
import { LOGGER, Metrics } from '@app/observability';
import { OUTBOX_OPTIONS, OutboxOptions, OutboxRelayLoop } from '@app/outbox';

/**
 * An outbox relay outside any app, on the given connections, wired as an app wires it (its own scheduler and
 * metrics, a silent logger). The caller runs its lifecycle: onApplicationBootstrap, beforeApplicationShutdown.
 */
export async function standaloneRelay(
  dataSource: DataSource,
  nats: NatsClient,
  options: OutboxOptions,
  metricsName = 'test',
): Promise<OutboxRelayLoop> {
  const moduleRef = await Test.createTestingModule({
    imports: [ScheduleModule.forRoot()],
    providers: [
      OutboxRelayLoop,
      { provide: DataSource, useValue: dataSource },
      { provide: NatsClient, useValue: nats },
      { provide: Metrics, useValue: new Metrics(metricsName) },
      { provide: OUTBOX_OPTIONS, useValue: options },
      { provide: LOGGER, useValue: pino({ level: 'silent' }) },
    ],
  }).compile();
  return moduleRef.get(OutboxRelayLoop);
}
