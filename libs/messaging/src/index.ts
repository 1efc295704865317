export * from './command';
export * from './jetstream';
export * from './nats-connection';
export * from './rpc-client';
export * from './coalesce-writes';
export * from './command-server';
export * from './nats-patch';
export * from './trace-headers';
