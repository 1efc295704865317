export * from './fingerprint';
export * from './idempotency-key';
export * from './idempotency.repository';
export * from './idempotency.service';
export * from './idempotency.sweeper';
export * from './idempotency.providers';
