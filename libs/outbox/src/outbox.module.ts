import { DynamicModule, Module } from '@nestjs/common';
import { backlogGaugesProvider } from '@app/database';
import { OUTBOX_OPTIONS, OutboxOptions, OutboxRelayLoop } from './outbox-relay.loop';
import { OutboxPruneLoop } from './outbox-prune.loop';
import { OutboxWriter } from './outbox.writer';
import { OUTBOX_BACKLOG } from './outbox.repository';

/** Needs DataSource, NatsClient and a pino Logger from the importing app. */
@Module({})
export class OutboxModule {
  static forRoot(options: OutboxOptions): DynamicModule {
    return {
      module: OutboxModule,
      global: true,
      providers: [
        { provide: OUTBOX_OPTIONS, useValue: options },
        OutboxRelayLoop,
        OutboxPruneLoop,
        OutboxWriter,
        backlogGaugesProvider({
          statement: OUTBOX_BACKLOG,
          count: { name: 'outbox_unpublished_events', help: 'Events written and not yet published to JetStream' },
          age: {
            name: 'outbox_oldest_unpublished_age_seconds',
            help: 'Seconds since the oldest unpublished event was written (0 when none waits)',
          },
        }),
      ],
      exports: [OutboxWriter, OutboxRelayLoop, OutboxPruneLoop],
    };
  }
}
