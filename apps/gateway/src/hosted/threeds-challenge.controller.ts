import { Body, Controller, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  ChallengeOutcomeRequest,
  ChallengeOutcomeResponse,
  keylessContext,
  PaymentsExtrasSubjects,
  SessionView,
} from '@app/contracts';
import { RpcClient } from '@app/messaging';
import { htmlHeaders, providerPageHeaders } from './html';
import { apmPage, challengePage, providerChallengePage } from './pages';
import { ApiErrors } from '../http/api-errors';
import { forwardedTo } from '../http/upstream-timeout.doc';

const PAYMENTS = forwardedTo('payments');
const UNKNOWN_SESSION = {
  NOT_FOUND: 'unknown session',
  AUTH_INSUFFICIENT_SCOPE: 'a production payment’s session: the page is a simulation, for sandbox payments only',
};

/**
 * Hosted pages the cardholder's browser opens from `actionRequired.url`. No key: the session id in the path
 * is the credential, and the service scopes everything by the session.
 */
@ApiTags('hosted pages')
@Controller('v1')
export class HostedPagesController {
  constructor(private readonly rpc: RpcClient) {}

  @Get('3ds/challenge/:sessionId')
  @ApiOperation({
    summary: '3DS challenge page (HTML, no key)',
    description:
      'actionRequired.url of a pending_3ds payment. For a provider’s own 3-D Secure, it sends the browser on to ' +
      'the provider’s page (303, or a form it posts); the provider sends it back to GET or POST /v1/3ds/return/{sessionId}.',
  })
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'The challenge page' })
  @ApiErrors(PAYMENTS, UNKNOWN_SESSION)
  async challenge(
    @Param('sessionId') sessionId: string,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const view = await this.view(request, sessionId, 'threeds');
    const action = view.providerAction;
    // A provider's own challenge: the shopper goes there (a redirect, or a form posted at once).
    if (action && view.status === 'pending' && !view.expired) {
      if (action.method === 'GET') {
        void reply
          .header('cache-control', 'no-store')
          .header('referrer-policy', 'no-referrer')
          .redirect(action.url, 303);
        return '';
      }
      return providerChallengePage(view, action, providerPageHeaders(reply, action.url));
    }
    const nonce = htmlHeaders(reply);
    return challengePage(view, nonce);
  }

  @Post('3ds/challenge/:sessionId')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Finish the 3DS challenge (the challenge page’s buttons; no key)',
    description: 'Records the cardholder’s outcome; the merchant then calls POST /v1/payment/resume.',
  })
  @ApiOkResponse({ type: ChallengeOutcomeResponse })
  @ApiErrors(PAYMENTS, UNKNOWN_SESSION, 'SESSION_EXPIRED', {
    INVALID_STATE: 'already finished or resumed, or a provider’s own challenge (it decides at the provider)',
  })
  complete(
    @Param('sessionId') sessionId: string,
    @Body() body: ChallengeOutcomeRequest,
    @Req() request: FastifyRequest,
  ): Promise<ChallengeOutcomeResponse> {
    return this.rpc.send<ChallengeOutcomeResponse>(
      PaymentsExtrasSubjects.completeChallenge,
      keylessContext(String(request.id)),
      {
        sessionId,
        outcome: body.outcome,
      },
    );
  }

  @Get('apm/:sessionId')
  @ApiOperation({
    summary: 'APM payment instructions (HTML, no key)',
    description: 'actionRequired.url of a pending_action payment.',
  })
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'The instructions page' })
  @ApiErrors(PAYMENTS, UNKNOWN_SESSION)
  async apm(
    @Param('sessionId') sessionId: string,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const view = await this.view(request, sessionId, 'apm');
    htmlHeaders(reply);
    return apmPage(view);
  }

  private view(request: FastifyRequest, sessionId: string, kind: SessionView['kind']): Promise<SessionView> {
    return this.rpc.send<SessionView>(PaymentsExtrasSubjects.sessionView, keylessContext(String(request.id)), {
      sessionId,
      kind,
    });
  }
}
