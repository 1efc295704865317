import { commonEnv, idempotencyEnv, ConfigOf, databaseUrl, int, loadConfig, url } from '@app/config';

export const paymentLinksEnv = {
  ...commonEnv,
  ...idempotencyEnv,
  PAYMENT_LINKS_HTTP_PORT: int(3002, 'Port of the payment-links service health and metrics endpoints', {
    min: 0,
    max: 65535,
  }),
  PAYMENT_LINKS_DATABASE_URL: databaseUrl('payment_links'),
  PUBLIC_BASE_URL: url(
    'http://localhost:3000',
    "The gateway's public base URL: a payment link's url is {PUBLIC_BASE_URL}/checkout/{id}",
    ['http:', 'https:'],
  ),
  LINK_EXPIRY_SWEEP_MS: int(30_000, 'How often expired payment links are looked for, in ms (0 turns it off)', {
    min: 0,
  }),
};
export type PaymentLinksConfig = ConfigOf<typeof paymentLinksEnv>;
/** Injection token of the payment-links service's parsed config. */
export const PAYMENT_LINKS_CONFIG = Symbol('PAYMENT_LINKS_CONFIG');
export const loadPaymentLinksConfig = (env = process.env): PaymentLinksConfig => loadConfig(paymentLinksEnv, env);
