import { ArgumentsHost, Catch, ExceptionFilter, Inject } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Logger } from 'pino';
import { LOGGER } from '@app/observability';
import { recordAnsweredError } from './answered-error';
import { toErrorResponse } from './error-response';
import { sendError } from './send-error';

/** Every error of every route leaves as the error envelope. */
@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  constructor(@Inject(LOGGER) private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const response = toErrorResponse(exception, String(request.id));
    if (response.unexpected) {
      this.logger.error(
        { err: exception, requestId: request.id, route: request.routeOptions?.url },
        'Unexpected error',
      );
    }
    recordAnsweredError(request, String(response.body.error.code));
    sendError(http.getResponse<FastifyReply>(), response);
  }
}
