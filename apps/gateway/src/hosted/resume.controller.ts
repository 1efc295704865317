import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { keylessContext, PaymentResponse, PaymentsExtrasSubjects, ResumeRequest } from '@app/contracts';
import { RpcClient } from '@app/messaging';
import { ACQUIRER_ERRORS, PaymentErrors } from '../payments/payment-errors';

@ApiTags('payments')
@Controller('v1/payment')
export class ResumeController {
  constructor(private readonly rpc: RpcClient) {}

  /** No guard and no rate limit: the session id is the credential, scoped to one pending payment. */
  @Post('resume')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Resume a payment after its 3DS challenge (no API key)',
    description:
      'The `sessionId` from `actionRequired` is the credential. A pending_3ds session is single-use and valid 15 ' +
      'minutes; the answer is the final Payment. A pending_action session answers the Payment as it stands. ' +
      'A payment link’s session is refused (409): the link’s checkout finishes it (POST /v1/checkout/{id}/resume).',
  })
  @ApiOkResponse({ type: PaymentResponse })
  @PaymentErrors(ACQUIRER_ERRORS, 'SESSION_EXPIRED', 'CHALLENGE_NOT_COMPLETED', {
    NOT_FOUND: 'unknown session',
    AUTH_INSUFFICIENT_SCOPE: 'a production payment’s 3DS session: the challenge is simulated, sandbox only',
    INVALID_STATE: 'the session was already used, or it is a payment link’s (its checkout resumes it)',
  })
  resume(@Body() body: ResumeRequest, @Req() request: FastifyRequest): Promise<PaymentResponse> {
    return this.rpc.send<PaymentResponse>(PaymentsExtrasSubjects.resume, keylessContext(String(request.id)), {
      sessionId: body.sessionId,
    });
  }
}
