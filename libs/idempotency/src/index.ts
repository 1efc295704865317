export * from './fingerprint';
export * from './idempotency-key';
export * from './idempotency-keys.migration';
export * from './idempotency.repository';
export * from './idempotency.service';
export * from './idempotency-sweep.loop';
export * from './idempotency.providers';
export * from './sealed-idempotency';
