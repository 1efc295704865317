export * from './payment-link.dto';
export * from './checkout.dto';
export * from './billing-port';
export * from './payer-result.dto';
