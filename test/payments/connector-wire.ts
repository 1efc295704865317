import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Environment } from '@app/contracts';
import { ConnectorConnection } from '../../apps/payments/src/connector/provider-connector';
import { TestStack } from '../support/stack';
import { PaymentsClient, paymentsQuery } from './payments-fixtures';

/** A provider's test double as the wire tests drive it. */
export interface WireDouble {
  connection(environment: Environment): ConnectorConnection;
}

/**
 * A stack whose payments service trusts the double's certificate (`CONNECTOR_EXTRA_CA_FILE`), with a merchant
 * that has a production and a sandbox connection of `acquirer` pointing at the double (added through the admin
 * API, which never echoes the API key), and a client for each of the merchant's keys.
 */
export class ConnectorWire {
  private constructor(
    readonly stack: TestStack,
    readonly live: PaymentsClient,
    readonly test: PaymentsClient,
    /** The production connection's id: its provider webhooks route. */
    readonly connectionId: string,
    private readonly dir: string,
  ) {}

  static async start(acquirer: 'adyen' | 'stripe', double: WireDouble, caPem: string): Promise<ConnectorWire> {
    const dir = mkdtempSync(join(tmpdir(), `${acquirer}-wire-`));
    const caFile = join(dir, 'ca.pem');
    writeFileSync(caFile, caPem);
    const stack = await TestStack.start({ env: { CONNECTOR_EXTRA_CA_FILE: caFile, RECOVERY_SWEEP_MS: '0' } });
    const merchantCode = await stack.merchant();
    const add = async (environment: Environment) => {
      const c = double.connection(environment);
      const r = await stack.admin('POST', `/merchants/${merchantCode}/connections`, {
        connectionCode: `${acquirer}-${environment}`,
        connectionName: `${acquirer} ${environment}`,
        acquirer,
        environment,
        currencies: [],
        methods: ['card'],
        priority: 10,
        endpoint: c.endpoint,
        credentials: c.credentials,
      });
      expect(r.status).toBe(201);
      expect(JSON.stringify(r.body)).not.toContain(c.credentials.apiKey);
      return r.body.id as string;
    };
    const connectionId = await add('production');
    await add('sandbox');
    const live = new PaymentsClient(
      stack,
      (await stack.key([merchantCode], 'private', 'production')).key,
      merchantCode,
    );
    const test = new PaymentsClient(stack, (await stack.key([merchantCode])).key, merchantCode);
    return new ConnectorWire(stack, live, test, connectionId, dir);
  }

  /** A provider webhook, as the provider sends it, to the production connection's route. */
  webhook(w: { rawBody: Buffer; headers: Record<string, string> }) {
    return this.stack.http('POST', `/v1/connectors/${this.connectionId}/webhooks`, {
      rawBody: w.rawBody.toString('utf8'),
      headers: w.headers,
    });
  }

  /** The provider's reference of a payment (Adyen's pspReference, Stripe's PaymentIntent id). */
  async referenceOf(paymentId: string): Promise<string> {
    const rows = await paymentsQuery<{ acquirer_reference: string }>(
      this.stack,
      'SELECT acquirer_reference FROM payments WHERE id = $1',
      [paymentId],
    );
    return rows[0].acquirer_reference;
  }

  async stop(): Promise<void> {
    await this.stack.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
