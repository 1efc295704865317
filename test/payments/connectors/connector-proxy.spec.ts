import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo, connect, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SystemClock } from '@app/clock';
import type { AuthorizationRequest } from '../../../apps/payments/src/connector/provider-connector';
import {
  connectorTimeoutMs,
  providerAgentsOf,
  providerConnectors,
} from '../../../apps/payments/src/connector/provider-connectors';
import { usd } from '../../support/amounts';
import { AdyenDouble } from '../../support/connectors/adyen/adyen-double';
import type { ConnectorDouble } from '../../support/connectors/connector-double';
import { StripeDouble } from '../../support/connectors/stripe/stripe-double';
import { selfSignedCert } from '../../support/self-signed-cert';

const purchase = (): AuthorizationRequest => ({
  paymentId: randomUUID(),
  at: new Date(),
  reference: `rq_proxy_${randomUUID().replace(/-/g, '')}`,
  amount: usd(1000),
  capture: true,
  paymentMethod: 'card',
  initiator: 'cardholder',
  card: {
    source: 'cardData',
    cardNumber: '4111111111111111',
    expiryMonth: '03',
    expiryYear: '2030',
    cvv: '737',
    cardholderName: 'Proxy Shopper',
    brand: 'visa',
    type: 'credit',
    tokenize: false,
  },
  returnUrl: 'https://gateway.example/v1/3ds/return/proxy',
});

/**
 * The connectors the payments module registers (providerConnectors) reach the providers through HTTPS_PROXY,
 * chosen per target URL by NO_PROXY, and trust CONNECTOR_EXTRA_CA_FILE's CA besides the system's.
 */
describe('Adyen and Stripe connectors behind HTTPS_PROXY', () => {
  const tunnels: string[] = [];
  const proxy: Server = createServer();
  proxy.on('connect', (req, client: Socket, head) => {
    tunnels.push(req.url!);
    const [host, port] = req.url!.split(':');
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client).pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  const doubles: Record<'adyen' | 'stripe', ConnectorDouble> = { adyen: new AdyenDouble(), stripe: new StripeDouble() };
  const dir = mkdtempSync(join(tmpdir(), 'connector-ca-'));
  const caFile = join(dir, 'double-ca.pem');
  let proxyUrl = '';

  beforeAll(async () => {
    writeFileSync(caFile, selfSignedCert().cert);
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    await Promise.all(Object.values(doubles).map((d) => d.start()));
  });
  afterAll(async () => {
    await Promise.all(Object.values(doubles).map((d) => d.stop()));
    proxy.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const connectors = (noProxy?: string) => {
    const config = {
      ACQUIRER_TIMEOUT_MS: 8_000,
      PUBLIC_BASE_URL: 'https://pay.example.com',
      HTTPS_PROXY: proxyUrl,
      NO_PROXY: noProxy,
      CONNECTOR_EXTRA_CA_FILE: caFile,
    };
    const agents = providerAgentsOf(config);
    return {
      agents,
      byAcquirer: new Map(providerConnectors(config, agents, new SystemClock()).map((c) => [c.acquirer, c])),
    };
  };

  it.each(['adyen', 'stripe'] as const)(
    '%s: every call is tunnelled through the proxy to the provider',
    async (acquirer) => {
      tunnels.length = 0;
      const { agents, byAcquirer } = connectors();
      const d = doubles[acquirer];
      const connection = d.connection('sandbox');
      const outcome = await byAcquirer.get(acquirer)!.authorize(connection, purchase());
      expect(outcome).toMatchObject({ kind: 'approved' });
      const target = new URL(connection.endpoint!);
      expect(tunnels.length).toBeGreaterThan(0);
      expect(new Set(tunnels)).toEqual(new Set([`${target.hostname}:${target.port}`]));
      expect(d.violations()).toEqual([]);
      agents.destroy();
    },
  );

  it.each(['adyen', 'stripe'] as const)('%s: a NO_PROXY host is reached directly', async (acquirer) => {
    tunnels.length = 0;
    const { agents, byAcquirer } = connectors('127.0.0.1');
    const outcome = await byAcquirer.get(acquirer)!.authorize(doubles[acquirer].connection('sandbox'), purchase());
    expect(outcome).toMatchObject({ kind: 'approved' });
    expect(tunnels).toEqual([]);
    agents.destroy();
  });

  it('waits for the provider less than ACQUIRER_TIMEOUT_MS, so the connector reports the unknown outcome', () => {
    expect(connectorTimeoutMs(8_000)).toBe(7_000);
    expect(connectorTimeoutMs(1_000)).toBe(800);
    expect(connectorTimeoutMs(1)).toBe(1);
  });
});
