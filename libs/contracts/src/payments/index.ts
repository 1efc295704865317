export * from './amount.dto';
export * from './connection.dto';
export * from './operation.dto';
export * from './payment-types';
export * from './payment.dto';
export * from './purchase.dto';
export * from './validators';
export * from './idempotency';
