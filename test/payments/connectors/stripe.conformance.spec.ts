import { StripeDouble } from '../../support/connectors/stripe/stripe-double';
import { runConformance } from './conformance';

describe('Stripe connector: connector conformance', () => {
  runConformance(() => new StripeDouble());
});
