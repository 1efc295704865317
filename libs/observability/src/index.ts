export * from './health';
export * from './logger';
export * from './metrics';
export * from './request-context';
export * from './tracing';
