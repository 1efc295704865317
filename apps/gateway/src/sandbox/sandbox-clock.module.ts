import { Module } from '@nestjs/common';
import { RPC_TIMEOUT_MS, RpcClient } from '@app/messaging';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';
import { SandboxClockOffsets } from './sandbox-clock-offsets';
import { SandboxClockRpcClient } from './sandbox-clock-rpc-client';
import { SandboxClockRepository } from './sandbox-clock.repository';
import { ADVANCE_LIMITS, SandboxClockService } from './sandbox-clock.service';

/**
 * Merchants' sandbox clocks (the `sandbox_clocks` table) and the gateway's RpcClient, which puts a merchant's
 * sandbox clock into its commands: every module that forwards to a service imports this for its RpcClient.
 */
@Module({
  providers: [
    SandboxClockRepository,
    SandboxClockOffsets,
    SandboxClockService,
    {
      provide: ADVANCE_LIMITS,
      inject: [GATEWAY_CONFIG],
      useFactory: (c: GatewayConfig) => ({ maxAdvance: c.SANDBOX_MAX_ADVANCE, maxWork: c.SANDBOX_MAX_ADVANCE_WORK }),
    },
    { provide: RPC_TIMEOUT_MS, inject: [GATEWAY_CONFIG], useFactory: (c: GatewayConfig) => c.RPC_TIMEOUT_MS },
    { provide: RpcClient, useClass: SandboxClockRpcClient },
  ],
  exports: [RpcClient, SandboxClockService],
})
export class SandboxClockModule {}
