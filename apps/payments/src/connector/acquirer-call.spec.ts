import pino from 'pino';
import { Metrics } from '@app/observability';
import { PaymentsConfig } from '../config';
import { AcquirerCalls, AcquirerFailure, AcquirerOutcomeUnknown } from './acquirer-call';
import { ConnectionHealth } from './connection-health';
import { ConnectorMetrics } from './connector-metrics';
import { ConnectorNotSent, ConnectorOutcomeUnknown } from './provider-connector';

const health = new ConnectionHealth();
const calls = new AcquirerCalls(
  { ACQUIRER_TIMEOUT_MS: 30 } as PaymentsConfig,
  pino({ enabled: false }),
  health,
  new ConnectorMetrics(new Metrics('acquirer_call_spec')),
);
const about = (acquirer: string) => ({ acquirer, operation: 'purchase', paymentId: 'p1' });
const never = () => new Promise<never>(() => undefined);

describe('acquirer calls: what a failed call means for the reservation', () => {
  it('a lost answer is an unknown outcome, kept (504 with the payment id)', async () => {
    const thrown = await calls
      .call(about('adyen'), () => Promise.reject(new ConnectorOutcomeUnknown('socket hang up')))
      .catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(AcquirerOutcomeUnknown);
    expect(thrown).toMatchObject({ code: 'UPSTREAM_TIMEOUT', details: { paymentId: 'p1', outcome: 'unknown' } });
  });

  it('a request that never left is a failure the caller releases (503)', async () => {
    const thrown = await calls
      .call(about('adyen'), () => Promise.reject(new ConnectorNotSent('ECONNREFUSED')))
      .catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(AcquirerFailure);
    expect(thrown).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });

  it('past the deadline a provider may have acted (unknown); the simulator’s late call is released (504)', async () => {
    await expect(calls.call(about('adyen'), never)).rejects.toBeInstanceOf(AcquirerOutcomeUnknown);
    const simulator = await calls.call(about('sandbox'), never).catch((e: unknown) => e);
    expect(simulator).toBeInstanceOf(AcquirerFailure);
    expect(simulator).toMatchObject({ code: 'UPSTREAM_TIMEOUT' });
  });
});

describe('acquirer calls: the connection’s health names why the last call failed', () => {
  const through = (connectionId: string) => ({ ...about('adyen'), connectionId });

  it.each([
    ['unreachable', () => Promise.reject(new ConnectorNotSent('ECONNREFUSED'))],
    ['answer_lost', () => Promise.reject(new ConnectorOutcomeUnknown('socket hang up'))],
    ['timeout', never],
  ] as const)('%s', async (reason, call) => {
    const connectionId = `c-${reason}`;
    await calls.call(through(connectionId), () => Promise.resolve('approved'));
    await calls.call(through(connectionId), call).catch(() => undefined);
    expect(health.view(connectionId)).toMatchObject({
      lastSuccessAt: expect.any(String),
      lastFailureAt: expect.any(String),
      lastFailureReason: reason,
      errorRate: 0.5,
      recentCalls: 2,
    });
  });
});
