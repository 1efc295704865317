import { DunningHandler } from '../dunning/dunning.handler';
import { ForcedAttempt } from '../dunning/forced-attempt';
import { RetryPaymentUseCase } from '../dunning/retry-payment.use-case';
import { BillingClockAdvanceHandler } from '../sandbox-clock/clock-advance.handler';
import { BillingClockAdvanceUseCase } from '../sandbox-clock/clock-advance.use-case';
import { RenewalLoop } from '../scheduler/renewal.loop';
import { RenewalOpeningService } from './renewal-opening.service';
import { RenewalOutcomeService } from './renewal-outcome.service';
import { RenewalParking } from './renewal-parking.service';
import { RenewalRunner } from './renewal-runner.service';
import { RenewalRepository } from './renewal.repository';

/** Billing over time: the renewal scheduler, dunning, the forced retry and the sandbox clock's due work. */
export const renewalHandlers = [DunningHandler, BillingClockAdvanceHandler];
export const renewalProviders = [
  RenewalRepository,
  RenewalOpeningService,
  RenewalOutcomeService,
  RenewalParking,
  RenewalRunner,
  RenewalLoop,
  ForcedAttempt,
  RetryPaymentUseCase,
  BillingClockAdvanceUseCase,
];
