import { Module } from '@nestjs/common';
import { RPC_TIMEOUT_MS, RpcClient } from '@app/messaging';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';
import { ApiKeysRepository } from './api-keys.repository';
import { ApiKeysService, KEY_CACHE_TTL_MS } from './api-keys.service';
import { MerchantsRepository } from './merchants.repository';
import { MerchantsService } from './merchants.service';

/**
 * Merchants and their API keys (the `merchants` and `api_keys` tables): what the HTTP gateway (both its
 * servers) and the CLI need. Its RpcClient names a new merchant to the webhooks service (MerchantsService).
 */
@Module({
  providers: [
    MerchantsRepository,
    MerchantsService,
    ApiKeysRepository,
    ApiKeysService,
    { provide: KEY_CACHE_TTL_MS, inject: [GATEWAY_CONFIG], useFactory: (c: GatewayConfig) => c.KEY_CACHE_TTL_MS },
    { provide: RPC_TIMEOUT_MS, inject: [GATEWAY_CONFIG], useFactory: (c: GatewayConfig) => c.RPC_TIMEOUT_MS },
    RpcClient,
  ],
  exports: [MerchantsService, MerchantsRepository, ApiKeysService, ApiKeysRepository],
})
export class AccountsModule {}
