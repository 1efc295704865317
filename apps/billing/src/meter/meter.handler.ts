import { MessagePattern } from '@nestjs/microservices';
import { BillingSubjects, CallerContext, CreateMeterRequest, MeterView, PageQuery } from '@app/contracts';
import { Caller, CommandBody, CommandHandler } from '@app/messaging';
import { CreateMeterUseCase } from './create-meter.use-case';
import { MeterQueries } from './meter-queries.service';

@CommandHandler()
export class MeterHandler {
  constructor(
    private readonly createUseCase: CreateMeterUseCase,
    private readonly meters: MeterQueries,
  ) {}

  @MessagePattern(BillingSubjects.createMeter)
  create(@Caller() ctx: CallerContext, @CommandBody() body: CreateMeterRequest): Promise<MeterView> {
    return this.createUseCase.run(ctx, body);
  }

  @MessagePattern(BillingSubjects.listMeters)
  list(@Caller() ctx: CallerContext, @CommandBody() query: PageQuery): Promise<MeterView[]> {
    return this.meters.list(ctx, query);
  }
}
