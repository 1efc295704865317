import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { Logger } from 'pino';
import { LOGGER } from '@app/observability';
import { ApiKeysService } from '../auth/api-keys.service';
import { MerchantsRepository } from '../auth/merchants.repository';
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
    private readonly merchantRows: MerchantsRepository,
    private readonly merchants: MerchantsService,
    private readonly keys: ApiKeysService,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.options.enabled) return;
    // Several replicas may start at once: one seeds.
    const seeded = await this.merchantRows.insertDemoIfEmpty();
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
