import { Provider } from '@nestjs/common';
import { RpcClient } from '@app/messaging';
import { SandboxClockController } from './sandbox-clock.controller';
import { SandboxClockOffsets } from './sandbox-clock-offsets';
import { SandboxClockRpcClient } from './sandbox-clock-rpc-client';
import { SandboxClockRepository } from './sandbox-clock.repository';
import { SandboxClockService } from './sandbox-clock.service';

/** The sandbox clock routes, and the RpcClient that puts a merchant's sandbox clock into its commands. */
export const sandboxClockControllers = [SandboxClockController];

export const sandboxClockProviders: Provider[] = [
  SandboxClockRepository,
  SandboxClockOffsets,
  SandboxClockService,
  { provide: RpcClient, useClass: SandboxClockRpcClient },
];
