import { applyDecorators, Controller } from '@nestjs/common';

/** Where `@Caller()` and `@CommandBody()` record which argument of a handler gets what. */
export const COMMAND_PARAMS = 'commands:params';

export interface CommandParam {
  index: number;
  from: 'ctx' | 'body';
}

function commandParam(from: CommandParam['from']): ParameterDecorator {
  return (target, method, index) => {
    if (method === undefined) throw new Error(`@${from === 'ctx' ? 'Caller' : 'CommandBody'}() on a constructor`);
    const params: CommandParam[] = Reflect.getMetadata(COMMAND_PARAMS, target, method) ?? [];
    Reflect.defineMetadata(COMMAND_PARAMS, [...params, { index, from }], target, method);
  };
}

/**
 * `@CommandBody() body: SomeDto` — the `body` of the command message, validated again inside the service
 * against its declared class (a NATS message bypasses the gateway's HTTP pipes).
 */
export const CommandBody = (): ParameterDecorator => commandParam('body');

/** `@Caller() ctx: CallerContext` — who is asking, from the command message. */
export const Caller = (): ParameterDecorator => commandParam('ctx');

/**
 * Marks a class of NATS command handlers; each handler method declares its subject with `@MessagePattern`
 * and is served by the CommandServer (caller check, body validation, metrics and error mapping).
 */
export const CommandHandler = (): ClassDecorator => applyDecorators(Controller());
