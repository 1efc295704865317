export * from './env';
export * from './secrets';
export * from './nats';
