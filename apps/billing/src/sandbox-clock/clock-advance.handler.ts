import { MessagePattern } from '@nestjs/microservices';
import { BillingSubjects, CallerContext, ClockAdvancedCommand, ClockAdvancedResult } from '@app/contracts';
import { Caller, CommandBody, CommandHandler } from '@app/messaging';
import { BillingClockAdvanceUseCase } from './clock-advance.use-case';

@CommandHandler()
export class BillingClockAdvanceHandler {
  constructor(private readonly advance: BillingClockAdvanceUseCase) {}

  @MessagePattern(BillingSubjects.clockAdvanced)
  clockAdvanced(@Caller() ctx: CallerContext, @CommandBody() body: ClockAdvancedCommand): Promise<ClockAdvancedResult> {
    return this.advance.run(ctx, body);
  }
}
