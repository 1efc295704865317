export * from './outbox.entity';
export * from './outbox.migration';
export * from './outbox-json-envelope.migration';
export * from './outbox-claim-index.migration';
export * from './outbox.module';
export * from './outbox-prune.loop';
export * from './outbox-relay.loop';
export * from './outbox.writer';
