export * from './clock';
export * from './ids';
