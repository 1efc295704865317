import type { FastifyReply } from 'fastify';
import type { ErrorResponse } from './error-response';

export function sendError(reply: FastifyReply, response: ErrorResponse): void {
  if (response.retryAfter !== undefined) void reply.header('retry-after', String(response.retryAfter));
  if (response.headers) void reply.headers(response.headers);
  void reply.status(response.status).header('content-type', 'application/json; charset=utf-8').send(response.body);
}
