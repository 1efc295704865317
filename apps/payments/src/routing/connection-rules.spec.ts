import type { ConnectionRequest } from '@app/contracts';
import { DomainError } from '@app/errors';
import { connectionRefusal } from './connection-rules';

const body = (o: Partial<ConnectionRequest> = {}): ConnectionRequest => ({
  connectionCode: 'c1',
  connectionName: 'C',
  acquirer: 'sandbox',
  environment: 'sandbox',
  currencies: [],
  methods: [],
  priority: 1,
  ...o,
});

const refusal = (b: ConnectionRequest, nodeEnv = 'test') => {
  const e = connectionRefusal(b, nodeEnv);
  return e && { code: e.code, param: e.param, message: e.message };
};

describe('connectionRefusal', () => {
  const simulator = body({ environment: 'production', allowSimulator: true });

  it('the simulator in production only with allowSimulator, outside a production deployment', () => {
    expect(refusal(body({ environment: 'production' }))).toMatchObject({ param: 'allowSimulator' });
    expect(refusal(body({ environment: 'production', allowSimulator: false }))).toMatchObject({
      param: 'allowSimulator',
    });
    expect(refusal(simulator, 'test')).toBeUndefined();
    expect(refusal(simulator, 'development')).toBeUndefined();
    expect(refusal(simulator, 'production')).toEqual({
      code: 'VALIDATION_FAILED',
      param: 'acquirer',
      message: 'A production deployment takes no production connection to the simulator: connect a real provider',
    });
    expect(connectionRefusal(simulator, 'production')).toBeInstanceOf(DomainError);
  });

  it('the simulator in sandbox needs no flag; the flag on anything else is a mistake', () => {
    expect(refusal(body())).toBeUndefined();
    expect(refusal(body({ allowSimulator: true }))).toMatchObject({ param: 'allowSimulator' });
    expect(refusal(body({ acquirer: 'adyen', environment: 'production', allowSimulator: true }))).toMatchObject({
      param: 'allowSimulator',
    });
    expect(refusal(body({ acquirer: 'adyen', environment: 'production' }), 'production')).toBeUndefined();
  });

  it('endpoint: https; http only to a loopback double outside production; never for the simulator', () => {
    const adyen = (endpoint: string, nodeEnv = 'test') =>
      refusal(body({ acquirer: 'adyen', environment: 'production', endpoint }), nodeEnv);
    expect(adyen('https://1797a841fbb37ca7-AdyenDemo-checkout-live.adyenpayments.com/checkout')).toBeUndefined();
    expect(adyen('https://127.0.0.1:4555')).toBeUndefined();
    expect(adyen('http://127.0.0.1:4555')).toBeUndefined();
    expect(adyen('http://localhost:4555')).toBeUndefined();
    expect(adyen('http://127.0.0.1:4555', 'production')).toMatchObject({ param: 'endpoint' });
    expect(adyen('http://checkout-test.adyen.com')).toMatchObject({ param: 'endpoint' });
    expect(adyen('https://user:pw@checkout-test.adyen.com')).toMatchObject({ param: 'endpoint' });
    expect(adyen('https://checkout-test.adyen.com/?x=1')).toMatchObject({ param: 'endpoint' });
    expect(refusal(body({ endpoint: 'https://127.0.0.1:4555' }))).toMatchObject({ param: 'endpoint' });
  });
});
