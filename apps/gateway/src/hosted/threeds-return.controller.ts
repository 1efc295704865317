import { Controller, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ChallengeReturnCommand, keylessContext, PaymentResponse, PaymentsExtrasSubjects } from '@app/contracts';
import { DomainError } from '@app/errors';
import { RpcClient } from '@app/messaging';
import { ApiErrors } from '../http/api-errors';
import { forwardedTo } from '../http/upstream-timeout.doc';
import { htmlHeaders } from './html';
import { challengeReturnPage } from './pages';

/** Providers add a handful of fields (Adyen `redirectResult`, 3DS1 `MD`/`PaRes`, Stripe `payment_intent`, …). */
const MAX_FIELDS = 20;
const MAX_VALUE = 16 * 1024;

/**
 * The return URL of a provider's 3-D Secure page (AuthorizationRequest.returnUrl). No key: the session id in the
 * path and the provider's own data are the credentials; the provider, asked with that data, decides the outcome.
 */
@ApiTags('hosted pages')
@Controller('v1/3ds/return')
export class ThreeDsReturnController {
  constructor(private readonly rpc: RpcClient) {}

  @Get(':sessionId')
  @ApiOperation({
    summary: 'Back from a provider’s 3-D Secure page (HTML, no key)',
    description:
      'The provider redirects the shopper here with its result in the query string (Adyen `redirectResult`); ' +
      'the payment is resumed with it and the page shows the outcome. The merchant hears of it by webhook ' +
      '(`payment.captured`, `payment.authorized` or `payment.refused`) or reads the payment. A reload shows the ' +
      'outcome again.',
  })
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'The outcome page' })
  @ApiErrors(forwardedTo('payments'), { NOT_FOUND: 'unknown session, or not a provider’s 3-D Secure session' })
  returnByGet(
    @Param('sessionId') sessionId: string,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    return this.resume(sessionId, request, reply);
  }

  @Post(':sessionId')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Back from a provider’s 3-D Secure page by form post (HTML, no key)',
    description:
      'As the GET, for providers that post their result (application/x-www-form-urlencoded, e.g. 3-D Secure 1 ' +
      '`MD` and `PaRes`).',
  })
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'The outcome page' })
  @ApiErrors(forwardedTo('payments'), { NOT_FOUND: 'unknown session, or not a provider’s 3-D Secure session' })
  returnByPost(
    @Param('sessionId') sessionId: string,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    return this.resume(sessionId, request, reply);
  }

  private async resume(sessionId: string, request: FastifyRequest, reply: FastifyReply): Promise<string> {
    const command: ChallengeReturnCommand = { sessionId, details: returnedFields(request) };
    const payment = await this.rpc.send<PaymentResponse>(
      PaymentsExtrasSubjects.challengeReturn,
      keylessContext(String(request.id)),
      command,
    );
    htmlHeaders(reply);
    return challengeReturnPage(payment.status);
  }
}

/** The query's and the form's fields (a form arrives as text: see installChallengeReturnForms). */
function returnedFields(request: FastifyRequest): Record<string, string> {
  const fields: Record<string, string> = {};
  const add = (name: string, value: unknown) => {
    if (typeof value !== 'string') return;
    if (value.length > MAX_VALUE || Object.keys(fields).length >= MAX_FIELDS) {
      throw DomainError.validation('The provider’s return carries too many or too long fields', name);
    }
    fields[name] = value;
  };
  for (const [name, value] of Object.entries((request.query ?? {}) as Record<string, unknown>)) add(name, value);
  const body = request.body;
  if (typeof body === 'string') for (const [name, value] of new URLSearchParams(body)) add(name, value);
  else if (body && typeof body === 'object') for (const [name, value] of Object.entries(body)) add(name, value);
  return fields;
}
