import { DynamicModule, Module } from '@nestjs/common';
import { OUTBOX_OPTIONS, OutboxOptions, OutboxRelay } from './outbox.relay';
import { OutboxPruner } from './outbox.pruner';
import { OutboxWriter } from './outbox.writer';

/** Needs DataSource, NatsClient and a pino Logger from the importing app. */
@Module({})
export class OutboxModule {
  static forRoot(options: OutboxOptions): DynamicModule {
    return {
      module: OutboxModule,
      global: true,
      providers: [{ provide: OUTBOX_OPTIONS, useValue: options }, OutboxRelay, OutboxPruner, OutboxWriter],
      exports: [OutboxWriter, OutboxRelay, OutboxPruner],
    };
  }
}
