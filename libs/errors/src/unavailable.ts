/** Node socket errors of a connection that could not be made or was lost. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EPIPE',
]);
/** PostgreSQL: class 08 (connection exception), the server shutting down or starting, too many connections. */
const POSTGRES_CODE = /^(08...|57P0[123]|53300)$/;
/** What node-postgres says when its connection or its pool gives out. */
const POSTGRES_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection closed/i;

/**
 * Whether an error says the database could not be reached (refused, lost, shutting down, no connection in
 * time), as opposed to a query that failed: such a request is answered 503 SERVICE_UNAVAILABLE, not 500.
 */
export function isDatabaseUnavailable(e: unknown): boolean {
  for (let cause = e, depth = 0; cause && typeof cause === 'object' && depth < 4; depth++) {
    const { code, message, driverError } = cause as { code?: unknown; message?: unknown; driverError?: unknown };
    if (typeof code === 'string' && (SOCKET_CODES.has(code) || POSTGRES_CODE.test(code))) return true;
    if (typeof message === 'string' && POSTGRES_MESSAGE.test(message)) return true;
    cause = driverError ?? (cause as { cause?: unknown }).cause;
  }
  return false;
}
