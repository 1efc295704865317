import { Inject, Type } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { randomUUID } from 'node:crypto';
import { Logger } from 'pino';
import { Clock } from '@app/clock';
import { CallerContext, PingResponse, PingSubjects, ServiceName } from '@app/contracts';
import { Caller, CommandHandler } from '@app/messaging';
import { LOGGER } from '@app/observability';

/** Identifies this replica in ping answers, so tests and operators can see the queue group at work. */
export const INSTANCE_ID = `${process.pid}-${randomUUID().slice(0, 8)}`;

/** The `cmd.<service>.ping` handler every service answers: a round trip with the caller's context. */
export function pingHandler(service: ServiceName): Type<unknown> {
  @CommandHandler()
  class PingHandler {
    private readonly instanceId = `${INSTANCE_ID}-${randomUUID().slice(0, 4)}`;

    constructor(
      private readonly clock: Clock,
      @Inject(LOGGER) private readonly logger: Logger,
    ) {}

    @MessagePattern(PingSubjects[service])
    ping(@Caller() ctx: CallerContext): PingResponse {
      this.logger.debug({ subject: PingSubjects[service] }, 'ping');
      return {
        service,
        instanceId: this.instanceId,
        merchantCode: ctx.merchantCode,
        environment: ctx.environment,
        requestId: ctx.requestId,
        now: this.clock.now(ctx).toISOString(),
      };
    }
  }
  return PingHandler;
}
