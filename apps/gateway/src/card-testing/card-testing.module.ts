import { Module } from '@nestjs/common';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';
import { SandboxClockModule } from '../sandbox/sandbox-clock.module';
import { CARD_TESTING_LIMITS, CheckoutAttemptLimit } from './attempt-limit';
import { CardTestingDefence } from './card-testing';
import { CheckoutAttemptsPruneLoop } from './checkout-attempts-prune.loop';
import { CheckoutAttemptsRepository } from './checkout-attempts.repository';

/**
 * The card-testing defence of open checkouts (the `checkout_attempts` table): declines counted per address and
 * per link, blocks, and the loop that prunes old attempts. The SDK session and the checkout ask it.
 */
@Module({
  imports: [SandboxClockModule],
  providers: [
    {
      provide: CARD_TESTING_LIMITS,
      inject: [GATEWAY_CONFIG],
      useFactory: (c: GatewayConfig) => ({
        perAddress: c.CHECKOUT_DECLINES_PER_ADDRESS,
        perLink: c.CHECKOUT_DECLINES_PER_LINK,
        windowSeconds: c.CHECKOUT_DECLINE_WINDOW_SECONDS,
        // Past the longest a pay call may take: a place still in flight then was left by a stopped replica.
        inFlightSeconds: Math.ceil(c.RPC_TIMEOUT_MS / 1000) + 60,
      }),
    },
    CheckoutAttemptsRepository,
    CheckoutAttemptLimit,
    CardTestingDefence,
    CheckoutAttemptsPruneLoop,
  ],
  exports: [CardTestingDefence],
})
export class CardTestingModule {}
