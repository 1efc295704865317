import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { LOGGER } from '@app/observability';
import { inTransaction } from '@app/database';
import { ApiKeysService } from '../auth/api-keys.service';
import { MerchantsService } from '../auth/merchants.service';

export const DEMO_OPTIONS = Symbol('DEMO_OPTIONS');
export interface DemoOptions {
  enabled: boolean;
  publicBaseUrl: string;
  print: (text: string) => void;
}

/**
 * On an empty database outside production: a `demo` merchant and a sandbox private key, printed once with a
 * curl line that works, so a newcomer can make a first call without reading the admin API.
 */
@Injectable()
export class DemoSeeder implements OnApplicationBootstrap {
  constructor(
    @Inject(DEMO_OPTIONS) private readonly options: DemoOptions,
    @InjectDataSource() private readonly db: DataSource,
    private readonly merchants: MerchantsService,
    private readonly keys: ApiKeysService,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.options.enabled) return;
    // Several replicas may start at once: one seeds, under a transaction-scoped advisory lock.
    const seeded = await inTransaction(this.db, async (m) => {
      await m.query("SELECT pg_advisory_xact_lock(hashtext('gateway:demo-seed'))");
      const [{ n }] = await m.query('SELECT count(*)::int AS n FROM merchants');
      if (n > 0) return false;
      await m.query(
        "INSERT INTO merchants (id, merchant_code, name) VALUES (gen_random_uuid(), 'demo', 'Demo merchant')",
      );
      return true;
    });
    // Development only, at every start (idempotent): a webhooks service that is not up yet does not stop the
    // gateway; the demo merchant's events are delivered once a later start names it.
    await this.merchants
      .nameToWebhooks('demo')
      .catch((e: Error) =>
        this.logger.warn({ err: e.message }, 'The webhooks service did not learn the demo merchant'),
      );
    if (!seeded) return;
    const key = await this.keys.create(['demo'], 'private', 'sandbox');
    this.logger.info({ merchantCode: 'demo', keyId: key.id }, 'Created the demo merchant and a sandbox key');
    const base = this.options.publicBaseUrl.replace(/\/$/, '');
    this.options.print(
      [
        '',
        '  Demo merchant "demo" created. Its sandbox private key (shown once):',
        `    ${key.key}`,
        '  Try a purchase:',
        `    curl -s ${base}/v1/payment/purchase -H 'Authorization: Bearer ${key.key}' -H 'Content-Type: application/json' \\`,
        `      -d '{"merchantCode":"demo","orderCode":"order-1","amount":{"currency":"USD","value":1999,"exponent":2},"card":{"cardData":{"cardNumber":"4111111111111111","cardholderName":"Ada Lovelace","expiryMonth":"12","expiryYear":"2030","cvv":"123"}}}'`,
        `  Or check the key: curl -s ${base}/v1/ping -H 'Authorization: Bearer ${key.key}'`,
        `  API docs: ${base}/docs`,
        '',
      ].join('\n'),
    );
  }
}
