import { LoggerService } from '@nestjs/common';
import pino, { DestinationStream, Logger } from 'pino';
import { currentRequestId } from './request-context';
import { activeSpanIds } from './tracing';

/**
 * Card data, CVVs, keys and tokens never reach a log line: these paths are censored wherever they appear,
 * and no code logs request bodies.
 */
const REDACT = [
  'authorization',
  '*.authorization',
  'headers.authorization',
  'req.headers.authorization',
  'key',
  '*.key',
  'token',
  '*.token',
  'clientToken',
  '*.clientToken',
  'cardNumber',
  '*.cardNumber',
  '*.*.cardNumber',
  'cvv',
  '*.cvv',
  '*.*.cvv',
  'secret',
  '*.secret',
  // Payment providers' credentials of a connection (admin connections route, connectors).
  'credentials',
  '*.credentials',
  'apiKey',
  '*.apiKey',
  'hmacKey',
  '*.hmacKey',
  'webhookSecret',
  '*.webhookSecret',
];

/** Injection token of the app's pino logger. */
export const LOGGER = Symbol('LOGGER');

export interface LoggerOptions {
  app: string;
  level?: string;
  destination?: DestinationStream;
}

export function createLogger({ app, level = 'info', destination }: LoggerOptions): Logger {
  return pino(
    {
      level,
      base: { app },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACT, censor: '[redacted]' },
      messageKey: 'msg',
      // The request's id, and with tracing on the trace and span the line was written in.
      mixin() {
        const requestId = currentRequestId();
        const ids = activeSpanIds();
        if (!ids) return requestId ? { requestId } : {};
        return requestId ? { requestId, ...ids } : ids;
      },
    },
    destination,
  );
}

/** Nest's logger interface on top of pino, so framework messages are JSON lines too. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string): void {
    this.logger.info({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string): void {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string): void {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string): void {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string): void {
    this.logger.trace({ context }, String(message));
  }
}
