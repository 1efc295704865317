import { DynamicModule, Module } from '@nestjs/common';
import { OUTBOX_OPTIONS, OutboxOptions, OutboxRelayLoop } from './outbox-relay.loop';
import { OutboxPruneLoop } from './outbox-prune.loop';
import { OutboxWriter } from './outbox.writer';

/** Needs DataSource, NatsClient and a pino Logger from the importing app. */
@Module({})
export class OutboxModule {
  static forRoot(options: OutboxOptions): DynamicModule {
    return {
      module: OutboxModule,
      global: true,
      providers: [{ provide: OUTBOX_OPTIONS, useValue: options }, OutboxRelayLoop, OutboxPruneLoop, OutboxWriter],
      exports: [OutboxWriter, OutboxRelayLoop, OutboxPruneLoop],
    };
  }
}
