import { MessagePattern } from '@nestjs/microservices';
import { CallerContext, ClockAdvancedCommand, ClockAdvancedResult, PaymentLinksSubjects } from '@app/contracts';
import { Caller, CommandBody, CommandHandler } from '@app/messaging';
import { ClockAdvanceUseCase } from './clock-advance.use-case';

@CommandHandler()
export class ClockAdvanceHandler {
  constructor(private readonly advance: ClockAdvanceUseCase) {}

  @MessagePattern(PaymentLinksSubjects.clockAdvanced)
  clockAdvanced(@Caller() ctx: CallerContext, @CommandBody() body: ClockAdvancedCommand): Promise<ClockAdvancedResult> {
    return this.advance.run(ctx, body);
  }
}
