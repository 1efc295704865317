import { Provider, Type } from '@nestjs/common';
import { CLIENT_TOKEN_CHECK } from '../auth/api-key.guard';
import { GatewayConfig } from '../config';
import { HostedPagesController } from '../hosted/threeds-challenge.controller';
import { ResumeController } from '../hosted/resume.controller';
import { SandboxPaymentsController } from '../sandbox/sandbox-payments.controller';
import { SandboxOnlyGuard } from '../sandbox/sandbox-route';
import { CARD_TESTING_LIMITS, CheckoutAttemptLimit } from '../checkout/attempt-limit';
import { CardTestingDefence } from '../checkout/card-testing';
import { CheckoutAttemptsPruneLoop } from '../checkout/checkout-attempts-prune.loop';
import { CheckoutAttemptsRepository } from '../checkout/checkout-attempts.repository';
import { CheckoutController } from '../checkout/checkout.controller';
import { CHECKOUT_PAGE_OPTIONS } from '../checkout/page-headers';
import { PaymentLinksController } from '../payment-links/payment-links.controller';
import { DashboardApp } from '../dashboard/dashboard-app';
import { DashboardSpaController } from '../dashboard/spa.controller';
import { BrowserAssets } from './browser-assets';
import { BrowserAssetsController } from './browser-assets.controller';
import { ClientTokenGuard, FieldMerchantGuard, LinkScopeGuard } from './client-token.guard';
import { CLIENT_TOKEN_OPTIONS, ClientTokens } from './client-tokens.service';
import { SdkController } from './sdk.controller';

/**
 * SDK session and nonce, the browser code (SDK, card fields, page scripts), hosted 3DS/APM pages, payment resume, the sandbox payment simulations, and
 * payment links with their hosted checkout, and the merchant dashboard's page.
 */
export const sdkControllers: Type<unknown>[] = [
  SdkController,
  BrowserAssetsController,
  ResumeController,
  HostedPagesController,
  SandboxPaymentsController,
  PaymentLinksController,
  CheckoutController,
  DashboardSpaController,
];

export function sdkProviders(config: GatewayConfig): Provider[] {
  return [
    {
      provide: CLIENT_TOKEN_OPTIONS,
      useValue: { secret: config.SDK_TOKEN_SECRET, production: config.NODE_ENV === 'production' },
    },
    ClientTokens,
    { provide: BrowserAssets, useFactory: () => new BrowserAssets() },
    { provide: DashboardApp, useFactory: () => new DashboardApp() },
    {
      provide: CLIENT_TOKEN_CHECK,
      inject: [ClientTokens],
      useFactory: (tokens: ClientTokens) => (credential: string) => tokens.isClientToken(credential),
    },
    ClientTokenGuard,
    FieldMerchantGuard,
    LinkScopeGuard,
    SandboxOnlyGuard,
    { provide: CHECKOUT_PAGE_OPTIONS, useValue: { publicBaseUrl: config.PUBLIC_BASE_URL } },
    {
      provide: CARD_TESTING_LIMITS,
      useValue: {
        perAddress: config.CHECKOUT_DECLINES_PER_ADDRESS,
        perLink: config.CHECKOUT_DECLINES_PER_LINK,
        windowSeconds: config.CHECKOUT_DECLINE_WINDOW_SECONDS,
        // Past the longest a pay call may take: a place still in flight then was left by a stopped replica.
        inFlightSeconds: Math.ceil(config.RPC_TIMEOUT_MS / 1000) + 60,
      },
    },
    CheckoutAttemptsRepository,
    CheckoutAttemptLimit,
    CardTestingDefence,
    CheckoutAttemptsPruneLoop,
  ];
}
