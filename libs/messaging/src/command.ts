import {
  applyDecorators,
  ArgumentMetadata,
  ArgumentsHost,
  CallHandler,
  Catch,
  Controller,
  ExceptionFilter,
  ExecutionContext,
  Inject,
  Injectable,
  NestInterceptor,
  PipeTransform,
  UseFilters,
  UseInterceptors,
} from '@nestjs/common';
import { Payload, RpcException } from '@nestjs/microservices';
import { ClassConstructor } from 'class-transformer';
import { Logger } from 'pino';
import { Observable, throwError } from 'rxjs';
import { finalize, tap } from 'rxjs/operators';
import { CommandMessage, ENVIRONMENTS } from '@app/contracts';
import { DomainError, RpcErrorPayload, toRpcError, validatedBody } from '@app/errors';
import { LOGGER, Metrics, requestContext } from '@app/observability';

/**
 * Validates a command body again inside the service: a NATS message bypasses the gateway's HTTP pipes.
 */
@Injectable()
export class CommandBodyPipe implements PipeTransform {
  async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const type = metadata.metatype;
    if (!type || [Object, String, Number, Boolean, Array].includes(type as never)) return value;
    return validatedBody(type as ClassConstructor<object>, value);
  }
}

/** `@CommandBody() body: SomeDto` — the validated `body` of a command message. */
export const CommandBody = (): ParameterDecorator => Payload('body', CommandBodyPipe);

/** `@Caller() ctx: CallerContext` — who is asking, from the command message. */
export const Caller = (): ParameterDecorator => Payload('ctx');

/**
 * Every command runs inside the request's context (its requestId reaches every log line), is checked for a
 * well-formed caller, and is counted in the metrics by subject and outcome.
 */
@Injectable()
export class CommandContextInterceptor implements NestInterceptor {
  constructor(private readonly metrics: Metrics) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const message = context.switchToRpc().getData<CommandMessage>();
    const subject = context.switchToRpc().getContext<{ getSubject(): string }>().getSubject();
    const ctx = message?.ctx;
    if (!ctx || typeof ctx.merchantCode !== 'string' || !ENVIRONMENTS.includes(ctx.environment)) {
      return throwError(() => DomainError.validation('Command without a valid caller context', 'ctx'));
    }
    const started = process.hrtime.bigint();
    let status = 'ok';
    return requestContext.run({ requestId: ctx.requestId }, () =>
      next.handle().pipe(
        tap({ error: (e: unknown) => (status = e instanceof DomainError ? e.code : 'error') }),
        finalize(() => this.metrics.observe('rpc', subject, status, Number(process.hrtime.bigint() - started) / 1e9)),
      ),
    );
  }
}

/** Turns whatever a handler threw into the RPC error payload; unexpected errors are logged, never leaked. */
@Catch()
@Injectable()
export class CommandExceptionFilter implements ExceptionFilter {
  constructor(@Inject(LOGGER) private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): Observable<never> {
    let payload: RpcErrorPayload;
    if (exception instanceof DomainError) {
      payload = toRpcError(exception);
    } else if (exception instanceof RpcException && typeof exception.getError() === 'object') {
      payload = exception.getError() as RpcErrorPayload;
    } else {
      const data = host.switchToRpc().getData<CommandMessage>();
      this.logger.error({ err: exception, requestId: data?.ctx?.requestId }, 'Unexpected error in command handler');
      payload = { code: 'INTERNAL_ERROR', message: 'Internal error' };
    }
    return throwError(() => payload);
  }
}

/** Marks a class of NATS command handlers: caller context, metrics and error mapping on every handler. */
export const CommandHandler = (): ClassDecorator =>
  applyDecorators(Controller(), UseInterceptors(CommandContextInterceptor), UseFilters(CommandExceptionFilter));
