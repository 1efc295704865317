import { Module } from '@nestjs/common';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';
import { CLIENT_TOKEN_OPTIONS, ClientTokens } from './client-tokens.service';

/** SDK client tokens: minted for the browser, checked by the SDK routes and the hosted pages. One secret. */
@Module({
  providers: [
    {
      provide: CLIENT_TOKEN_OPTIONS,
      inject: [GATEWAY_CONFIG],
      useFactory: (c: GatewayConfig) => ({ secret: c.SDK_TOKEN_SECRET, production: c.NODE_ENV === 'production' }),
    },
    ClientTokens,
  ],
  exports: [ClientTokens],
})
export class ClientTokensModule {}
