import { loadGatewayConfig } from '../../../apps/gateway/src/config';
import { loadPaymentsConfig } from '../../../apps/payments/src/config';
import { ConfigError, refusesAutovacuumOff } from './env';

describe('configuration', () => {
  it('defaults to a local machine', () => {
    const c = loadGatewayConfig({});
    expect(c.PORT).toBe(3000);
    expect(c.PUBLIC_BASE_URL).toBe('http://localhost:3000');
    expect(c.NATS_URL).toBe('nats://127.0.0.1:4222');
    expect(c.GATEWAY_DATABASE_URL).toBe('postgres://postgres@127.0.0.1:5432/gateway');
    expect(loadPaymentsConfig({}).PAYMENTS_DATABASE_URL).toBe('postgres://postgres@127.0.0.1:5432/payments');
  });

  it('tracing is off unless an OTLP endpoint is set; the sample ratio is a share from 0 to 1', () => {
    expect(loadPaymentsConfig({})).toMatchObject({
      OTEL_EXPORTER_OTLP_ENDPOINT: undefined,
      OTEL_TRACES_SAMPLER_ARG: 1,
    });
    const on = loadPaymentsConfig({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      OTEL_TRACES_SAMPLER_ARG: '0.25',
    });
    expect(on).toMatchObject({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_TRACES_SAMPLER_ARG: 0.25 });
    for (const bad of ['1.5', '-0.1', 'half', '25%']) {
      expect(() => loadPaymentsConfig({ OTEL_TRACES_SAMPLER_ARG: bad })).toThrow(
        /OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1/,
      );
    }
    expect(() => loadPaymentsConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(
      /OTEL_EXPORTER_OTLP_ENDPOINT/,
    );
  });

  it('PUBLIC_BASE_URL follows PORT unless set', () => {
    expect(loadGatewayConfig({ PORT: '4000' }).PUBLIC_BASE_URL).toBe('http://localhost:4000');
    expect(loadGatewayConfig({ PUBLIC_BASE_URL: 'https://pay.example.com' }).PUBLIC_BASE_URL).toBe(
      'https://pay.example.com',
    );
  });

  it('a bad value stops start-up with a message naming every bad variable', () => {
    let error: unknown;
    try {
      loadGatewayConfig({
        PORT: 'eighty',
        NATS_URL: 'http://nats',
        RPC_TIMEOUT_MS: '5',
        DEMO_MERCHANT: 'maybe',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    for (const name of ['PORT', 'NATS_URL', 'RPC_TIMEOUT_MS', 'DEMO_MERCHANT']) expect(message).toContain(name);
    expect(() => loadPaymentsConfig({ PAYMENTS_DATABASE_URL: 'mysql://x/y' })).toThrow(/PAYMENTS_DATABASE_URL/);
  });

  it('a production start refuses a server without autovacuum unless ALLOW_AUTOVACUUM_OFF accepts it', () => {
    expect(refusesAutovacuumOff(loadPaymentsConfig({}))).toBe(false);
    expect(refusesAutovacuumOff(loadGatewayConfig({ NODE_ENV: 'test' }))).toBe(false);
    expect(refusesAutovacuumOff({ NODE_ENV: 'production', ALLOW_AUTOVACUUM_OFF: false })).toBe(true);
    expect(refusesAutovacuumOff({ NODE_ENV: 'production', ALLOW_AUTOVACUUM_OFF: true })).toBe(false);
    expect(loadGatewayConfig({ ALLOW_AUTOVACUUM_OFF: 'true' }).ALLOW_AUTOVACUUM_OFF).toBe(true);
    expect(() => loadGatewayConfig({ ALLOW_AUTOVACUUM_OFF: 'sometimes' })).toThrow(/ALLOW_AUTOVACUUM_OFF/);
  });

  it('does not echo database passwords in errors', () => {
    expect(() => loadGatewayConfig({ GATEWAY_DATABASE_URL: 'not a url with secret@' })).toThrow(ConfigError);
    try {
      loadGatewayConfig({ GATEWAY_DATABASE_URL: '::://user:hunter2@host' });
    } catch (e) {
      expect((e as Error).message).not.toContain('hunter2');
    }
  });
});

describe('the configuration table (docs/configuration.md)', () => {
  it('lists every environment variable every app reads', () => {
    const { readFileSync } = jest.requireActual<typeof import('node:fs')>('node:fs');
    const readme = readFileSync(`${__dirname}/../../../docs/configuration.md`, 'utf8');
    const schemas = [
      require('../../../apps/gateway/src/config').gatewayEnv,
      require('../../../apps/payments/src/config').paymentsEnv,
      require('../../../apps/payment-links/src/config').paymentLinksEnv,
      require('../../../apps/billing/src/config').billingEnv,
      require('../../../apps/webhooks/src/config').webhooksEnv,
    ];
    const missing = schemas.flatMap((s) => Object.keys(s)).filter((name) => !readme.includes(`| \`${name}\` |`));
    expect(missing).toEqual([]);
  });
});
