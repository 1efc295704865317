import type { ConnectionRequest } from '@app/contracts';
import { DomainError } from '@app/errors';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * The simulator as a production connection (only ever added explicitly, outside a production deployment):
 * a NODE_ENV=production deployment never routes to one, even a row written before it became one.
 */
export const isSimulatedProduction = (c: { acquirer: string; environment: string }): boolean =>
  c.acquirer === 'sandbox' && c.environment === 'production';

/**
 * Why an admin request may not have this connection, as to the simulator and the endpoint; undefined when it
 * may. `nodeEnv` is the deployment's NODE_ENV.
 */
export function connectionRefusal(body: ConnectionRequest, nodeEnv: string | undefined): DomainError | undefined {
  const production = nodeEnv === 'production';
  if (isSimulatedProduction(body)) {
    if (production) {
      return DomainError.validation(
        'A production deployment takes no production connection to the simulator: connect a real provider',
        'acquirer',
      );
    }
    if (body.allowSimulator !== true) {
      return DomainError.validation(
        'The sandbox acquirer is the simulator: a production connection to it needs "allowSimulator": true (for tests only)',
        'allowSimulator',
      );
    }
  } else if (body.allowSimulator !== undefined) {
    return DomainError.validation(
      'allowSimulator applies only to a production connection to the sandbox acquirer',
      'allowSimulator',
    );
  }
  if (body.endpoint === undefined) return undefined;
  if (body.acquirer === 'sandbox') return DomainError.validation('The simulator takes no endpoint', 'endpoint');
  const url = new URL(body.endpoint);
  const local = LOOPBACK.has(url.hostname) && !production;
  if (url.protocol !== 'https:' && !local) {
    return DomainError.validation(
      'endpoint must be an https URL (http only to a loopback address outside production)',
      'endpoint',
    );
  }
  if (url.username || url.password || url.search || url.hash) {
    return DomainError.validation(
      'endpoint must be an origin and path, without credentials, query or fragment',
      'endpoint',
    );
  }
  return undefined;
}
