import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import {
  CallerContext,
  ChallengeOutcomeResponse,
  PaymentResponse,
  PaymentsExtrasSubjects,
  SandboxChallengeRequest,
  SettleRequest,
} from '@app/contracts';
import { RpcClient } from '@app/messaging';
import { Caller } from '../auth/caller.decorator';
import { SandboxRoute } from './sandbox-route';
import { ApiErrors } from '../http/api-errors';
import { forwardedTo } from '../http/upstream-timeout.doc';
import { RequirePermission } from '../auth/permission';

@ApiTags('sandbox')
@Controller('v1/sandbox')
export class SandboxPaymentsController {
  constructor(private readonly rpc: RpcClient) {}

  @Post('3ds/:sessionId')
  @RequirePermission('manage')
  @HttpCode(200)
  @SandboxRoute({
    summary: 'Act as the cardholder finishing a 3DS challenge',
    description:
      'Records `authenticated` or `failed` for the session, as the hosted challenge page’s buttons do. The card ' +
      '4000000000003055 always fails. Then POST /v1/payment/resume answers the final Payment.',
  })
  @ApiOkResponse({ type: ChallengeOutcomeResponse })
  @ApiErrors(forwardedTo('payments'), 'SESSION_EXPIRED', {
    NOT_FOUND: 'unknown session, or another merchant’s',
    INVALID_STATE: 'already finished with another outcome, or resumed',
  })
  challenge(
    @Param('sessionId') sessionId: string,
    @Body() body: SandboxChallengeRequest,
    @Caller() caller: CallerContext,
  ): Promise<ChallengeOutcomeResponse> {
    return this.rpc.send<ChallengeOutcomeResponse>(PaymentsExtrasSubjects.sandboxChallenge, caller, {
      sessionId,
      outcome: body.outcome,
    });
  }

  @Post('payment/:id/settle')
  @RequirePermission('manage')
  @HttpCode(200)
  @SandboxRoute({
    summary: 'Settle a pending APM payment now',
    description:
      '`paid` → captured, `failed` → failed, `expired` → cancelled. Answers the Payment in its final status; the ' +
      'events and webhooks follow asynchronously.',
  })
  @ApiOkResponse({ type: PaymentResponse })
  @ApiErrors(forwardedTo('payments'), {
    NOT_FOUND: 'unknown payment, or another merchant’s',
    INVALID_STATE: 'the payment is not pending_action',
  })
  settle(
    @Param('id') id: string,
    @Body() body: SettleRequest,
    @Caller() caller: CallerContext,
  ): Promise<PaymentResponse> {
    return this.rpc.send<PaymentResponse>(PaymentsExtrasSubjects.sandboxSettle, caller, {
      paymentId: id,
      outcome: body.outcome,
    });
  }
}
