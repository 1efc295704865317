import { AdyenDouble } from '../../support/connectors/adyen/adyen-double';
import { runConformance } from './conformance';

describe('Adyen connector: connector conformance', () => {
  runConformance(() => new AdyenDouble());
});
