import { DynamicModule, Global, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { idempotencyProviders, IdempotencyService } from '@app/idempotency';
import { GatewayConfig } from '../config';
import { gatewaySecretCipher } from '../secret-keys';
import { GatewayIdempotency } from './gateway-idempotency';

/**
 * Idempotency-Key handling of the gateway's own changes (admin, dashboard, sandbox clock, card-update links):
 * the shared library's lease table plus GatewayIdempotency, which seals an answer that shows a secret. Global:
 * a route module of either server takes GatewayIdempotency without importing this.
 */
@Global()
@Module({})
export class GatewayIdempotencyModule {
  static forRoot(config: GatewayConfig): DynamicModule {
    return {
      module: GatewayIdempotencyModule,
      providers: [
        // A key of the gateway's own changes is leased longer than the longest call one waits for (a sandbox
        // clock advance, 60 s); a failed request deletes its key's row, so a corrected retry starts afresh.
        ...idempotencyProviders({
          fingerprintKey: config.IDEMPOTENCY_FINGERPRINT_KEY,
          lease: { ms: 90_000, keepResourceId: false, callKeyPrefix: 'gateway' },
        }),
        {
          provide: GatewayIdempotency,
          inject: [IdempotencyService, DataSource],
          useFactory: (keys: IdempotencyService, db: DataSource) =>
            new GatewayIdempotency(keys, db, gatewaySecretCipher(config)),
        },
      ],
      exports: [IdempotencyService, GatewayIdempotency],
    };
  }
}
