import { EntityManager } from 'typeorm';
import { Clock } from '@app/clock';
import { CallerContext, CreatePlanRequest, PlanView } from '@app/contracts';
import { DomainError } from '@app/errors';
import { TransactionUseCase, UseCase } from '@app/idempotency';
import { assertCurrency } from '@app/money';
import { MeterRepository } from '../meter/meter.repository';
import { countries } from './plan-queries.service';
import { PlanRepository } from './plan.repository';
import { toPlanView } from './plan.view';

/** POST /v1/plans: a plan with its defaults; its meters must exist. */
@UseCase({ operation: 'plan.create', idempotency: 'transaction', status: 201 })
export class CreatePlanUseCase extends TransactionUseCase<CreatePlanRequest, PlanView> {
  constructor(
    private readonly plans: PlanRepository,
    private readonly meters: MeterRepository,
    private readonly clock: Clock,
  ) {
    super();
  }

  protected async execute(ctx: CallerContext, body: CreatePlanRequest, manager: EntityManager): Promise<PlanView> {
    const isoExponent = assertCurrency(body.currency, 'currency');
    const exponent = body.exponent ?? isoExponent;
    if (exponent !== isoExponent) {
      throw new DomainError('INVALID_EXPONENT', `${body.currency} has exponent ${isoExponent}`, 'exponent');
    }
    const introCycles = body.introBillingCycles ?? 0;
    if (body.introAmount !== undefined && introCycles < 1) {
      throw DomainError.validation('introAmount needs introBillingCycles of at least 1', 'introBillingCycles');
    }
    if (introCycles > 0 && body.introAmount === undefined) {
      throw DomainError.validation('introBillingCycles needs introAmount', 'introAmount');
    }
    const meterCodes = [...new Set(body.meterCodes ?? [])];
    const missing = await this.meters.missingCodes(ctx, meterCodes, manager);
    if (missing) throw new DomainError('NOT_FOUND', `No such meter: ${missing}`, 'meterCodes');
    const now = this.clock.now(ctx);
    const plan = await this.plans.insert(
      {
        merchantCode: ctx.merchantCode,
        environment: ctx.environment,
        merchantId: ctx.merchantId ?? null,
        name: body.name,
        description: body.description ?? null,
        interval: body.interval,
        intervalCount: body.intervalCount ?? 1,
        amount: body.amount,
        currency: body.currency,
        exponent,
        trialPeriodDays: body.trialPeriodDays ?? 0,
        introAmount: body.introAmount ?? null,
        introBillingCycles: introCycles,
        maxBillingCycles: body.maxBillingCycles ?? 0,
        availableCountries: countries(body.availableCountries),
        isActive: body.isActive ?? true,
        meterCodes,
        archivedAt: null,
        createdAt: now,
        updatedAt: now,
      },
      manager,
    );
    return toPlanView(plan);
  }
}
