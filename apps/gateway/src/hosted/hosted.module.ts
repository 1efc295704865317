import { Module } from '@nestjs/common';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';
import { SandboxClockModule } from '../sandbox/sandbox-clock.module';
import { CHECKOUT_PAGE_OPTIONS } from './page-headers';
import { ResumeController } from './resume.controller';
import { HostedPagesController } from './threeds-challenge.controller';
import { ThreeDsReturnController } from './threeds-return.controller';

/**
 * The hosted pages of a payment (3DS challenge, APM instructions, the 3DS return and the resume), and the
 * settings every hosted page shares (CHECKOUT_PAGE_OPTIONS: the public base URL its links use).
 */
@Module({
  imports: [SandboxClockModule],
  controllers: [ResumeController, HostedPagesController, ThreeDsReturnController],
  providers: [
    {
      provide: CHECKOUT_PAGE_OPTIONS,
      inject: [GATEWAY_CONFIG],
      useFactory: (c: GatewayConfig) => ({ publicBaseUrl: c.PUBLIC_BASE_URL }),
    },
  ],
  exports: [CHECKOUT_PAGE_OPTIONS],
})
export class HostedModule {}
