import { Provider } from '@nestjs/common';
import { IdempotencyRepository } from './idempotency.repository';
import { IDEMPOTENCY_OPTIONS, IdempotencyOptions, IdempotencyService } from './idempotency.service';
import { IdempotencySweepLoop } from './idempotency-sweep.loop';

/** A service's Idempotency-Keys in its `idempotency_keys` table: the records, the claims and the sweep. */
export function idempotencyProviders(options: IdempotencyOptions): Provider[] {
  return [
    { provide: IDEMPOTENCY_OPTIONS, useValue: options },
    IdempotencyRepository,
    IdempotencyService,
    IdempotencySweepLoop,
  ];
}
