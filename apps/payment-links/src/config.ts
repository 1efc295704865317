import { commonEnv, ConfigOf, databaseUrl, int, loadConfig } from '@app/config';

export const paymentLinksEnv = {
  ...commonEnv,
  PAYMENT_LINKS_HTTP_PORT: int(3002, 'Port of the payment-links service health and metrics endpoints', {
    min: 0,
    max: 65535,
  }),
  PAYMENT_LINKS_DATABASE_URL: databaseUrl('payment_links'),
};
export type PaymentLinksConfig = ConfigOf<typeof paymentLinksEnv>;
export const loadPaymentLinksConfig = (env = process.env): PaymentLinksConfig => loadConfig(paymentLinksEnv, env);
