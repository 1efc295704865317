import { DynamicModule, Global, Module, ModuleMetadata, Type } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { Metrics } from '@app/observability';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';
import { AccountsModule } from './accounts.module';
import { PrivateKeyGuard, RATE_LIMITER } from './api-key.guard';
import { AuthFailures } from './auth-failures';
import { BearerStrategy } from './bearer.strategy';
import { CLIENT_TOKEN_CHECK, ClientTokenCheck, CREDENTIAL_RESOLVER, CredentialResolver } from './credential-resolver';
import { RateLimiter } from './rate-limiter';

export interface AuthModuleOptions {
  /** The modules that export the two classes below. */
  imports: NonNullable<ModuleMetadata['imports']>;
  /** The CredentialResolver: the credential a request may carry instead of an API key (the dashboard session). */
  credentials: Type<CredentialResolver>;
  /** What recognizes an SDK client token sent to a server route (403, not 401). */
  clientTokens: Type<ClientTokenCheck>;
}

/**
 * Authentication of the public server's routes: API keys (passport bearer), the per-key rate limit, the
 * failed-credential counter, and PrivateKeyGuard, which every `@Caller()` route uses. Global: the guard is
 * built in each route's own module, which therefore sees its collaborators. The other credentials are ports
 * (auth/credential-resolver.ts) bound here by the root module, so auth/ imports neither dashboard/ nor sdk/.
 */
@Global()
@Module({})
export class AuthModule {
  static forRoot(options: AuthModuleOptions): DynamicModule {
    return {
      module: AuthModule,
      imports: [PassportModule, AccountsModule, ...options.imports],
      providers: [
        {
          provide: RATE_LIMITER,
          inject: [GATEWAY_CONFIG],
          useFactory: (c: GatewayConfig) => new RateLimiter(c.RATE_LIMIT_PER_SECOND),
        },
        {
          provide: AuthFailures,
          inject: [GATEWAY_CONFIG, Metrics],
          useFactory: (c: GatewayConfig, metrics: Metrics) => new AuthFailures(c.AUTH_FAILURES_PER_MINUTE, metrics),
        },
        { provide: CREDENTIAL_RESOLVER, useExisting: options.credentials },
        { provide: CLIENT_TOKEN_CHECK, useExisting: options.clientTokens },
        BearerStrategy,
        PrivateKeyGuard,
      ],
      exports: [RATE_LIMITER, AuthFailures, CREDENTIAL_RESOLVER, CLIENT_TOKEN_CHECK, PrivateKeyGuard],
    };
  }
}
