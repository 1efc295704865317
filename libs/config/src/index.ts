export * from './env';
export * from './secrets';
