import { DynamicModule, Inject, Injectable, Module, OnModuleDestroy } from '@nestjs/common';
import { DiscoveryModule, DiscoveryService, MetadataScanner } from '@nestjs/core';
import { PATTERN_METADATA } from '@nestjs/microservices/constants';
import type { ClassConstructor } from 'class-transformer';
import { Msg, Subscription } from 'nats';
import { Logger } from 'pino';
import { CommandMessage, ENVIRONMENTS, queueGroupOf, ServiceName } from '@app/contracts';
import {
  assertStorableText,
  DomainError,
  isDatabaseUnavailable,
  RpcErrorPayload,
  toRpcError,
  validatedBody,
} from '@app/errors';
import { failSpan, inSpan, LOGGER, Metrics, requestContext, SpanKind, tracingOn } from '@app/observability';
import { COMMAND_PARAMS, CommandParam } from './command';
import { NatsClient } from './nats-connection';
import { messagingAttributes, traceContextOf, traceHeaders } from './trace-headers';

const SERVED = Symbol('COMMANDS_SERVED');

/** Whose commands the server takes, and how long a stopping service waits for those it holds. */
interface Served {
  service: ServiceName;
  drainTimeoutMs: number;
}
const UNVALIDATED = new Set<unknown>([undefined, Object, String, Number, Boolean, Array]);

interface Route {
  subject: string;
  run(message: CommandMessage): Promise<unknown>;
}

/** The wire format the gateway's RpcClient speaks (NestJS's NATS packets): `{id, data}` in, `{id, response | err}` out. */
interface Packet {
  id?: unknown;
  data?: CommandMessage;
}

/**
 * Serves the `@MessagePattern` handlers of the service's `@CommandHandler` classes over NATS, every replica
 * in the service's queue group. Each command is checked for a well-formed caller and for text that cannot be
 * stored (NUL, unpaired surrogates: 400 naming the field), its body validated against
 * the handler's declared class, run inside the request's context (its requestId reaches every log line),
 * counted in the metrics, and answered with the result or the error payload; an unexpected error is logged
 * and answered as INTERNAL_ERROR, never leaked. A plain subscription per subject: no per-message framework
 * pipeline between the socket and the handler.
 */
@Injectable()
export class CommandServer implements OnModuleDestroy {
  private subscriptions: Subscription[] = [];
  private readonly inFlight = new Set<Promise<unknown>>();
  private draining?: Promise<void>;

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly nats: NatsClient,
    private readonly metrics: Metrics,
    @Inject(SERVED) private readonly served: Served,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Subscribes every handler; resolves once the NATS server has the subscriptions (waits for NATS to be up). */
  async listen(): Promise<void> {
    const nc = await this.nats.get();
    this.metrics.inProgress('rpc', () => this.inFlight.size);
    const queue = queueGroupOf(this.served.service);
    for (const route of this.routes()) {
      const subscription = nc.subscribe(route.subject, {
        queue,
        callback: (err, msg) => {
          if (err) return this.logger.warn({ err, subject: route.subject }, 'Command subscription error');
          const done = this.answer(route, msg);
          this.inFlight.add(done);
          void done.finally(() => this.inFlight.delete(done));
        },
      });
      this.subscriptions.push(subscription);
    }
    await nc.flush();
  }

  /**
   * Stops taking commands: the subscriptions are drained, so the NATS server routes new commands to the other
   * replicas of the queue group, and the commands already received are answered. Resolves once every command
   * this replica holds has answered (or after the drain timeout). Runs before anything is stopped in
   * beforeApplicationShutdown (workers) or onApplicationShutdown (pools, NATS): the handlers still need them.
   */
  drain(): Promise<void> {
    this.draining ??= this.drainOnce();
    return this.draining;
  }

  onModuleDestroy(): Promise<void> {
    return this.drain();
  }

  private async drainOnce(): Promise<void> {
    const subscriptions = this.subscriptions;
    this.subscriptions = [];
    await Promise.all(subscriptions.map((s) => s.drain().catch(() => undefined)));
    let timer: NodeJS.Timeout | undefined;
    const finished = await Promise.race([
      Promise.allSettled([...this.inFlight]).then(() => true),
      new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), this.served.drainTimeoutMs))),
    ]);
    clearTimeout(timer);
    if (!finished) {
      this.logger.warn(
        { commands: this.inFlight.size, timeoutMs: this.served.drainTimeoutMs },
        'Stopping with commands still running',
      );
    }
  }

  /** With tracing on, the command runs in a span of its own, a child of the caller's (the message's headers). */
  private answer(route: Route, msg: Msg): Promise<unknown> {
    if (!tracingOn()) return this.answerIn(route, msg);
    return inSpan(
      route.subject,
      { kind: SpanKind.SERVER, attributes: messagingAttributes(route.subject, 'process'), parent: traceContextOf(msg) },
      async (span) => {
        const status = await this.answerIn(route, msg);
        if (status !== 'ok') failSpan(span, undefined, status);
      },
    );
  }

  /** Answers one command; resolves to its status in the metrics ('ok', an error code or 'error'). */
  private async answerIn(route: Route, msg: Msg): Promise<string> {
    const started = process.hrtime.bigint();
    let status = 'ok';
    let reply: { id: unknown; response?: unknown; err?: RpcErrorPayload; isDisposed: true };
    let packet: Packet = {};
    try {
      packet = readPacket(msg);
      const message = packet.data;
      const ctx = message?.ctx;
      if (!ctx || typeof ctx.merchantCode !== 'string' || !ENVIRONMENTS.includes(ctx.environment)) {
        throw DomainError.validation('Command without a valid caller context', 'ctx');
      }
      // A command bypasses the gateway's checks: text PostgreSQL cannot store is refused here too, by path.
      assertStorableText(message.ctx, 'ctx');
      assertStorableText(message.body);
      const response = await requestContext.run({ requestId: ctx.requestId }, () => route.run(message!));
      reply = { id: packet.id, response, isDisposed: true };
    } catch (e) {
      status = e instanceof DomainError ? e.code : 'error';
      reply = { id: packet.id, err: this.errorPayload(e, packet), isDisposed: true };
    }
    if (msg.reply) msg.respond(Buffer.from(JSON.stringify(reply)), { headers: traceHeaders() });
    this.metrics.observe('rpc', route.subject, status, Number(process.hrtime.bigint() - started) / 1e9);
    return status;
  }

  private errorPayload(e: unknown, packet: Packet): RpcErrorPayload {
    return answerOfError(e, this.logger, packet.data?.ctx?.requestId);
  }

  private routes(): Route[] {
    const routes: Route[] = [];
    for (const wrapper of this.discovery.getControllers()) {
      const instance = wrapper.instance as Record<string, (...args: unknown[]) => unknown> | undefined;
      if (!instance) continue;
      const prototype = Object.getPrototypeOf(instance) as object;
      for (const method of this.scanner.getAllMethodNames(prototype)) {
        const patterns = Reflect.getMetadata(PATTERN_METADATA, instance[method]) as unknown[] | undefined;
        if (!patterns?.length) continue;
        const run = handlerOf(instance, prototype, method);
        for (const subject of patterns) routes.push({ subject: String(subject), run });
      }
    }
    return routes;
  }
}

/**
 * What a command answers for an error: a DomainError as itself; anything else is logged and answered as
 * INTERNAL_ERROR, never leaked. (Also for the items of a command that answers each item apart.)
 */
export function answerOfError(e: unknown, logger: Logger, requestId?: string): RpcErrorPayload {
  if (e instanceof DomainError) return toRpcError(e);
  if (isDatabaseUnavailable(e)) {
    logger.warn({ err: e, requestId }, 'Database unreachable: command answered SERVICE_UNAVAILABLE');
    return { code: 'SERVICE_UNAVAILABLE', message: "The service's database is unreachable" };
  }
  logger.error({ err: e, requestId }, 'Unexpected error in command handler');
  return { code: 'INTERNAL_ERROR', message: 'Internal error' };
}

function readPacket(msg: Msg): Packet {
  try {
    const packet = msg.json<Packet>();
    if (packet && typeof packet === 'object') return packet;
  } catch {
    // answered below
  }
  throw DomainError.validation('A command is a JSON object {id, data: {ctx, body}}');
}

/** Calls the handler with the arguments its `@Caller()` / `@CommandBody()` parameters ask for. */
function handlerOf(
  instance: Record<string, (...args: unknown[]) => unknown>,
  prototype: object,
  method: string,
): Route['run'] {
  const params: CommandParam[] = Reflect.getMetadata(COMMAND_PARAMS, prototype, method) ?? [];
  const types: unknown[] = Reflect.getMetadata('design:paramtypes', prototype, method) ?? [];
  return async (message) => {
    const args: unknown[] = [];
    for (const p of params) {
      const type = types[p.index];
      args[p.index] =
        p.from === 'ctx'
          ? message.ctx
          : UNVALIDATED.has(type)
            ? message.body
            : await validatedBody(type as ClassConstructor<object>, message.body);
    }
    return instance[method](...args);
  };
}

/**
 * The command server of one service; `bootstrapService` imports it next to the service's own module.
 * `drainTimeoutMs`: how long a stopping service waits for the commands it holds.
 */
@Module({})
export class CommandsModule {
  static forService(service: ServiceName, drainTimeoutMs: number): DynamicModule {
    return {
      module: CommandsModule,
      imports: [DiscoveryModule],
      providers: [{ provide: SERVED, useValue: { service, drainTimeoutMs } satisfies Served }, CommandServer],
      exports: [CommandServer],
    };
  }
}
