import { MessagePattern } from '@nestjs/microservices';
import { BillingSubjects, CallerContext, CreateMeterRequest, MeterView, PageQuery } from '@app/contracts';
import { Caller, CommandBody, CommandHandler } from '@app/messaging';
import { MeterService } from './meter.service';

@CommandHandler()
export class MeterHandler {
  constructor(private readonly meters: MeterService) {}

  @MessagePattern(BillingSubjects.createMeter)
  create(@Caller() ctx: CallerContext, @CommandBody() body: CreateMeterRequest): Promise<MeterView> {
    return this.meters.create(ctx, body);
  }

  @MessagePattern(BillingSubjects.listMeters)
  list(@Caller() ctx: CallerContext, @CommandBody() query: PageQuery): Promise<MeterView[]> {
    return this.meters.list(ctx, query);
  }
}
