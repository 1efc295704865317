import { backlogGaugesProvider } from '@app/database';
import { CardCheckLoop } from './account-updater/card-check.loop';
import { CardCheckRepository } from './account-updater/card-check.repository';
import { CardCheckRunner } from './account-updater/card-check.runner';
import { DunningHandler } from './dunning/dunning.handler';
import { ForcedAttempt } from './dunning/forced-attempt';
import { RetryPaymentUseCase } from './dunning/retry-payment.use-case';
import { BillingClockAdvanceHandler } from './sandbox-clock/clock-advance.handler';
import { BillingClockAdvanceUseCase } from './sandbox-clock/clock-advance.use-case';
import { RenewalLoop } from './scheduler/renewal.loop';
import { RenewalCharges } from './renewal/renewal-charges';
import { RenewalFaults } from './renewal/renewal-faults';
import { RenewalOpeningService } from './renewal/renewal-opening.service';
import { RenewalOutcomeService } from './renewal/renewal-outcome.service';
import { RenewalParking } from './renewal/renewal-parking.service';
import { RenewalRunner } from './renewal/renewal-runner.service';
import { RenewalSteps } from './renewal/renewal-steps';
import { RetryParkedRenewalUseCase } from './renewal/retry-parked-renewal.use-case';
import { RENEWAL_BACKLOG, RenewalRepository } from './renewal/renewal.repository';

/** Billing over time: the renewal scheduler, dunning, the forced retry and the sandbox clock's due work. */
export const renewalHandlers = [DunningHandler, BillingClockAdvanceHandler];
export const renewalProviders = [
  RenewalRepository,
  RenewalOpeningService,
  RenewalOutcomeService,
  RenewalParking,
  RenewalRunner,
  RenewalSteps,
  RetryParkedRenewalUseCase,
  RenewalCharges,
  RenewalFaults,
  RenewalLoop,
  CardCheckRepository,
  CardCheckRunner,
  CardCheckLoop,
  ForcedAttempt,
  RetryPaymentUseCase,
  BillingClockAdvanceUseCase,
  backlogGaugesProvider({
    statement: RENEWAL_BACKLOG,
    count: {
      name: 'billing_renewals_due',
      help: 'Subscriptions whose renewal, trial end or dunning retry is due by now and not yet done',
    },
    age: {
      name: 'billing_renewal_oldest_due_age_seconds',
      help: 'Seconds since the earliest renewal still not done fell due (0 when none waits)',
    },
  }),
];
