import { SandboxDouble } from '../../support/connectors/sandbox-double';
import { runConformance } from './conformance';

describe('sandbox simulator: connector conformance', () => {
  runConformance(() => new SandboxDouble());
});
