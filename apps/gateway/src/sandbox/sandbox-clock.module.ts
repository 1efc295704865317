import { Provider } from '@nestjs/common';
import { RpcClient } from '@app/messaging';
import { GatewayConfig } from '../config';
import { SandboxClockController } from './sandbox-clock.controller';
import { SandboxClockOffsets } from './sandbox-clock-offsets';
import { SandboxClockRpcClient } from './sandbox-clock-rpc-client';
import { SandboxClockRepository } from './sandbox-clock.repository';
import { ADVANCE_LIMITS, SandboxClockService } from './sandbox-clock.service';

/** The sandbox clock routes, and the RpcClient that puts a merchant's sandbox clock into its commands. */
export const sandboxClockControllers = [SandboxClockController];

export const sandboxClockProviders = (
  config: Pick<GatewayConfig, 'SANDBOX_MAX_ADVANCE' | 'SANDBOX_MAX_ADVANCE_WORK'>,
): Provider[] => [
  SandboxClockRepository,
  SandboxClockOffsets,
  SandboxClockService,
  {
    provide: ADVANCE_LIMITS,
    useValue: { maxAdvance: config.SANDBOX_MAX_ADVANCE, maxWork: config.SANDBOX_MAX_ADVANCE_WORK },
  },
  { provide: RpcClient, useClass: SandboxClockRpcClient },
];
