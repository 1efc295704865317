import { EntityManager } from 'typeorm';
import { Clock, uuidv7 } from '@app/clock';
import { CallerContext, CreateMeterRequest, MeterView } from '@app/contracts';
import { DomainError } from '@app/errors';
import { TransactionUseCase, UseCase } from '@app/idempotency';
import { Pricing, pricingProblem } from '../pricing/pricing';
import { MeterEntity } from './meter.entity';
import { toMeterView } from './meter-queries.service';
import { MeterRepository } from './meter.repository';

/** Only the fields of the scheme are kept: `{scheme: per_unit, unitAmount, packageSize}` stores no packageSize. */
function pricingOf(body: CreateMeterRequest['pricing']): Pricing {
  const problem = pricingProblem(body);
  if (problem) throw DomainError.validation(problem.message, problem.param);
  const p = body as unknown as Pricing;
  switch (p.scheme) {
    case 'per_unit':
      return { scheme: p.scheme, unitAmount: p.unitAmount };
    case 'package':
      return { scheme: p.scheme, packageSize: p.packageSize, packageAmount: p.packageAmount };
    default:
      return {
        scheme: p.scheme,
        tiers: p.tiers.map((t) => ({
          upTo: t.upTo ?? null,
          unitAmount: t.unitAmount,
          ...(t.flatAmount !== undefined ? { flatAmount: t.flatAmount } : {}),
        })),
      };
  }
}

/**
 * POST /v1/meters: a usage meter, its code unique per merchant and environment, its pricing validated. The
 * caller's Idempotency-Key is claimed in its transaction, so a retry replays the answer instead of 409
 * DUPLICATE_METER_CODE.
 */
@UseCase({ operation: 'meter.create', idempotency: 'transaction', status: 201 })
export class CreateMeterUseCase extends TransactionUseCase<CreateMeterRequest, MeterView> {
  constructor(
    private readonly meters: MeterRepository,
    private readonly clock: Clock,
  ) {
    super();
  }

  protected async execute(ctx: CallerContext, body: CreateMeterRequest, manager: EntityManager): Promise<MeterView> {
    const meter = this.meterOf(ctx, body);
    await this.meters.insert(meter, manager);
    return toMeterView(meter);
  }

  private meterOf(ctx: CallerContext, body: CreateMeterRequest): MeterEntity {
    return {
      id: uuidv7(),
      merchantCode: ctx.merchantCode,
      environment: ctx.environment,
      code: body.code,
      name: body.name,
      aggregation: body.aggregation,
      includedUnits: body.includedUnits ?? 0,
      pricing: pricingOf(body.pricing),
      createdAt: this.clock.now(ctx),
    };
  }
}
