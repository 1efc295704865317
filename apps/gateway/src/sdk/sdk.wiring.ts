import { Provider, Type } from '@nestjs/common';
import { CLIENT_TOKEN_CHECK } from '../auth/api-key.guard';
import { GatewayConfig } from '../config';
import { HostedPagesController } from '../hosted/threeds-challenge.controller';
import { ResumeController } from '../hosted/resume.controller';
import { SandboxPaymentsController } from '../sandbox/sandbox-payments.controller';
import { SandboxOnlyGuard } from '../sandbox/sandbox-route';
import { ClientTokenGuard } from './client-token.guard';
import { CLIENT_TOKEN_OPTIONS, ClientTokens } from './client-tokens.service';
import { SdkController } from './sdk.controller';

/** SDK session and nonce, hosted 3DS/APM pages, payment resume and the sandbox payment simulations. */
export const sdkControllers: Type<unknown>[] = [
  SdkController,
  ResumeController,
  HostedPagesController,
  SandboxPaymentsController,
];

export function sdkProviders(config: GatewayConfig): Provider[] {
  return [
    {
      provide: CLIENT_TOKEN_OPTIONS,
      useValue: { secret: config.SDK_TOKEN_SECRET, production: config.NODE_ENV === 'production' },
    },
    ClientTokens,
    {
      provide: CLIENT_TOKEN_CHECK,
      inject: [ClientTokens],
      useFactory: (tokens: ClientTokens) => (credential: string) => tokens.isClientToken(credential),
    },
    ClientTokenGuard,
    SandboxOnlyGuard,
  ];
}
