import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Observable } from 'rxjs';
import { requestContext, RequestStore } from '@app/observability';

/** Runs the pipes and the handler inside the request's context (requestId in logs, ignored fields). */
@Injectable()
export class RequestContextInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest & { store?: RequestStore }>();
    const store: RequestStore = request.store ?? { requestId: String(request.id) };
    request.store = store;
    return requestContext.run(store, () => next.handle());
  }
}
