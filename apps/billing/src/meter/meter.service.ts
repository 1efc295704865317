import { Injectable } from '@nestjs/common';
import { Clock, uuidv7 } from '@app/clock';
import { CallerContext, CreateMeterRequest, MeterView, PageQuery } from '@app/contracts';
import { DomainError } from '@app/errors';
import { IdempotencyService } from '@app/idempotency';
import { Pricing, pricingProblem } from '../pricing/pricing';
import { isUuid, pageLimit } from '../scope';
import { MeterEntity } from './meter.entity';
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

const toMeterView = (m: MeterEntity): MeterView => ({
  id: m.id,
  code: m.code,
  name: m.name,
  aggregation: m.aggregation,
  includedUnits: m.includedUnits,
  pricing: m.pricing as unknown as Record<string, unknown>,
  createdAt: m.createdAt.toISOString(),
});

/**
 * Usage meters: code unique per merchant and environment, pricing validated. A creation claims the caller's
 * Idempotency-Key in its transaction, so a retry replays the answer instead of 409 DUPLICATE_METER_CODE.
 */
@Injectable()
export class MeterService {
  constructor(
    private readonly meters: MeterRepository,
    private readonly idempotency: IdempotencyService,
    private readonly clock: Clock,
  ) {}

  create(ctx: CallerContext, body: CreateMeterRequest): Promise<MeterView> {
    return this.idempotency.transaction(ctx, 'meter.create', body, 201, async (manager) => {
      const meter = this.meterOf(ctx, body);
      await this.meters.insert(meter, manager);
      return toMeterView(meter);
    });
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

  async list(ctx: CallerContext, query: PageQuery): Promise<MeterView[]> {
    if (query.startingAfter !== undefined && !isUuid(query.startingAfter)) {
      throw DomainError.validation('startingAfter must be a meter id', 'startingAfter');
    }
    const rows = await this.meters.list(ctx, { limit: pageLimit(query.limit), startingAfter: query.startingAfter });
    return rows.map(toMeterView);
  }
}
