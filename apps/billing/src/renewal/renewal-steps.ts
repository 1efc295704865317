import { Injectable } from '@nestjs/common';
import { RenewalCharges } from './renewal-charges';
import { RenewalOpeningService } from './renewal-opening.service';
import { RenewalOutcomeService } from './renewal-outcome.service';
import { RenewalParking } from './renewal-parking.service';

/** The steps of one renewal, in their order: open the invoice, charge it, record the outcome, or park it. */
@Injectable()
export class RenewalSteps {
  constructor(
    readonly opening: RenewalOpeningService,
    readonly charges: RenewalCharges,
    readonly outcome: RenewalOutcomeService,
    readonly parking: RenewalParking,
  ) {}
}
