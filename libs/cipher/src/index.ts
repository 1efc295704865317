export * from './keyring';
export * from './cipher';
export * from './webhook-secret-cipher';
