import { Module } from '@nestjs/common';
import { AccountsModule } from '../auth/accounts.module';
import { CardTestingModule } from '../card-testing/card-testing.module';
import { HostedModule } from '../hosted/hosted.module';
import { SandboxClockModule } from '../sandbox/sandbox-clock.module';
import { BrowserAssets } from './browser-assets';
import { BrowserAssetsController } from './browser-assets.controller';
import { ClientTokensModule } from './client-tokens.module';
import { SdkController } from './sdk.controller';

/** The SDK session (a client token) and the browser code: the SDK, card fields, the hosted pages' scripts. */
@Module({
  imports: [ClientTokensModule, AccountsModule, SandboxClockModule, CardTestingModule, HostedModule],
  controllers: [SdkController, BrowserAssetsController],
  providers: [{ provide: BrowserAssets, useFactory: () => new BrowserAssets() }],
})
export class SdkModule {}
