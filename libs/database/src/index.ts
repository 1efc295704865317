export * from './database.module';
export * from './ensure-database';
export * from './migrate';
export * from './transformers';
export * from './prepared';
export * from './pipelined-transaction';
export * from './entity-insert';
export * from './sweep';
