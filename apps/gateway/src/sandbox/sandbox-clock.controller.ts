import { Body, Controller, Get, HttpCode, Post, Query, Req } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { AdvanceClockRequest, CallerContext, MerchantQuery, SandboxClockResponse } from '@app/contracts';
import { Caller } from '../auth/caller.decorator';
import { SandboxRoute } from './sandbox-route';
import { SandboxClockService } from './sandbox-clock.service';
import { ApiErrors } from '../http/api-errors';
import { GatewayIdempotency } from '../idempotency/gateway-idempotency';
import { IdempotencyKeyHeader, IdempotentCaller } from '../auth/idempotent-caller.decorator';
import { RequirePermission } from '../auth/permission';

@ApiTags('sandbox')
@Controller('v1/sandbox/clock')
export class SandboxClockController {
  constructor(
    private readonly clocks: SandboxClockService,
    private readonly idempotency: GatewayIdempotency,
  ) {}

  @Get()
  @RequirePermission('read')
  @SandboxRoute({
    summary: 'Read the merchant’s sandbox clock',
    description: 'Real time until the clock is first advanced; after that it keeps running from where it was moved.',
  })
  @ApiOkResponse({ type: SandboxClockResponse })
  now(@Query() _query: MerchantQuery, @Caller() caller: CallerContext): Promise<SandboxClockResponse> {
    return this.clocks.now(caller);
  }

  @Post('advance')
  @RequirePermission('manage')
  @HttpCode(200)
  @IdempotencyKeyHeader()
  @SandboxRoute({
    summary: 'Move the merchant’s sandbox clock forward',
    description:
      'Send exactly one of `to` (RFC 3339) and `by` (ISO 8601 duration: P1M, P3D, PT16M…). Before answering, runs ' +
      'the time-driven work of this merchant’s sandbox that falls due up to the new time, in time order (hold ' +
      'expiries, 3DS session expiries), each as of the time it fell due. Other merchants and production are untouched. ' +
      'One call moves the clock at most SANDBOX_MAX_ADVANCE (default P1Y) and each service runs at most ' +
      'SANDBOX_MAX_ADVANCE_WORK pieces of due work for it.',
  })
  @ApiOkResponse({ type: SandboxClockResponse })
  @ApiErrors('IDEMPOTENCY_IN_PROGRESS', 'IDEMPOTENCY_KEY_REUSED', {
    VALIDATION_FAILED: 'both or neither of `to` and `by`, or malformed',
    CLOCK_BACKWARDS: 'before the clock’s current time',
    CLOCK_ADVANCE_TOO_FAR:
      'past SANDBOX_MAX_ADVANCE from the clock, or more due work than SANDBOX_MAX_ADVANCE_WORK (the clock did ' +
      'not move; what ran stays done)',
    SERVICE_UNAVAILABLE: 'a service could not be reached: the clock did not move',
    UPSTREAM_TIMEOUT: 'a service did not answer in time: the clock did not move; retry',
    INVALID_STATE:
      'another advance of this clock (e.g. one whose client gave up) is still running its due work past this ' +
      'call’s wait; the clock did not move, retry',
  })
  advance(
    @Body() body: AdvanceClockRequest,
    @IdempotentCaller() caller: CallerContext,
    @Req() request: FastifyRequest,
  ): Promise<SandboxClockResponse> {
    // The client closed its connection: the services still to be asked are not (see SandboxClockService).
    const advance = () => this.clocks.advance(caller, body, () => request.raw.socket?.destroyed === true);
    // A retry of `by: P1M` must not move the clock a second month.
    return this.idempotency.run(caller, 'sandbox_clock.advance', body, advance);
  }
}
