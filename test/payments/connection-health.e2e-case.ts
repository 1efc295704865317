import { Metrics } from '@app/observability';
import {
  AuthorizationOutcome,
  AuthorizationRequest,
  ConnectorConnection,
} from '../../apps/payments/src/connector/provider-connector';
import { SandboxAcquirerConnector } from '../../apps/payments/src/connector/sandbox-acquirer.connector';
import { OPEN_AFTER_FAILURES } from '../../apps/payments/src/connector/connection-health';
import { TestStack } from '../support/stack';
import { expectError, PaymentsClient, sandboxMerchant } from './payments-fixtures';

/** The sandbox acquirer, except that calls through the connections in `down` fail as an unreachable host would. */
class PartlyDownAcquirer extends SandboxAcquirerConnector {
  readonly down = new Set<string>();

  override authorize(connection: ConnectorConnection, request: AuthorizationRequest): Promise<AuthorizationOutcome> {
    if (this.down.has(connection.connectionCode)) {
      return Promise.reject(new Error('connect ECONNREFUSED 203.0.113.9:443'));
    }
    return super.authorize(connection, request);
  }
}

/**
 * Health per connection: the acquirer call path records every call's outcome; after repeated failures a
 * connection's circuit opens and routing tries the merchant's other connections first; the admin API and the
 * metrics show it.
 */
describe('connection health and circuit', () => {
  const acquirer = new PartlyDownAcquirer();
  let stack: TestStack;
  let m: PaymentsClient;

  beforeAll(async () => {
    stack = await TestStack.start({ connectors: [acquirer] });
    m = await sandboxMerchant(stack);
    for (const [connectionCode, priority] of [
      ['flaky', 1],
      ['steady', 2],
    ] as const) {
      const r = await stack.admin('POST', `/merchants/${m.merchantCode}/connections`, {
        connectionCode,
        connectionName: connectionCode,
        acquirer: 'sandbox',
        environment: 'sandbox',
        currencies: ['USD'],
        methods: ['card'],
        priority,
      });
      expect(r.status).toBe(201);
    }
  });
  afterAll(() => stack.stop());

  const healthOf = async (connectionCode: string) =>
    (await stack.admin('GET', `/merchants/${m.merchantCode}/connections?environment=sandbox`)).body.find(
      (c: { connectionCode: string }) => c.connectionCode === connectionCode,
    ).health;

  it(`a connection that fails ${OPEN_AFTER_FAILURES} times in a row opens; payments go to the next one`, async () => {
    expect((await m.purchase()).body).toMatchObject({ status: 'captured', connectionCode: 'flaky' });
    acquirer.down.add('flaky');
    for (let i = 0; i < OPEN_AFTER_FAILURES; i++) {
      expectError(await m.purchase(), 503, 'SERVICE_UNAVAILABLE');
    }
    const flaky = await healthOf('flaky');
    expect(flaky).toMatchObject({
      circuit: 'open',
      lastSuccessAt: expect.any(String),
      lastFailureAt: expect.any(String),
      recentCalls: OPEN_AFTER_FAILURES + 1,
    });
    expect(flaky.errorRate).toBeCloseTo(OPEN_AFTER_FAILURES / (OPEN_AFTER_FAILURES + 1), 3);
    expect(flaky.lastFailureAt > flaky.lastSuccessAt).toBe(true);
    // Open: routing puts it after the others, so the merchant's payments go on through `steady`.
    expect((await m.purchase()).body).toMatchObject({ status: 'captured', connectionCode: 'steady' });
    expect(await healthOf('steady')).toMatchObject({ circuit: 'closed', errorRate: 0, recentCalls: 1 });
    // A pinned payment still goes where it is pinned.
    expectError(await m.purchase({ connectionCode: 'flaky' }), 503, 'SERVICE_UNAVAILABLE');
  });

  it('metrics count the calls by connector and outcome', async () => {
    const text = await stack.services.get('payments')![0].get(Metrics).text();
    const failed = text.match(
      /payments_connector_calls_total\{[^}]*connector="sandbox"[^}]*outcome="failed"[^}]*\} (\d+)/,
    );
    expect(Number(failed?.[1])).toBeGreaterThanOrEqual(OPEN_AFTER_FAILURES);
  });
});
