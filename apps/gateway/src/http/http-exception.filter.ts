import { ArgumentsHost, Catch, ExceptionFilter, Inject } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Logger } from 'pino';
import { LOGGER } from '@app/observability';
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
    sendError(http.getResponse<FastifyReply>(), response);
  }
}
