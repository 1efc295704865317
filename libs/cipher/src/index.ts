export * from './keyring';
export * from './cipher';
