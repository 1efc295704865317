export * from './domain-error';
export * from './validation';
export * from './unavailable';
export * from './storable-text';
