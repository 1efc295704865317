import { isDatabaseUnavailable } from './unavailable';

describe('isDatabaseUnavailable', () => {
  const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

  it('is true for a connection refused, lost or timed out, and for a server shutting down or full', () => {
    expect(isDatabaseUnavailable(withCode('ECONNREFUSED'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(isDatabaseUnavailable(withCode('57P01', 'terminating connection due to administrator command'))).toBe(true);
    expect(isDatabaseUnavailable(withCode('53300', 'sorry, too many clients already'))).toBe(true);
    expect(isDatabaseUnavailable(withCode('08006'))).toBe(true);
  });

  it('looks through TypeORM’s QueryFailedError (driverError) and an Error cause', () => {
    const wrapped = Object.assign(new Error('query failed'), { driverError: withCode('ECONNRESET') });
    expect(isDatabaseUnavailable(wrapped)).toBe(true);
    expect(isDatabaseUnavailable(new Error('outer', { cause: withCode('57P03') }))).toBe(true);
  });

  it('is false for a query that failed on a reachable database, and for anything else', () => {
    expect(isDatabaseUnavailable(withCode('23505', 'duplicate key value violates unique constraint'))).toBe(false);
    expect(isDatabaseUnavailable(withCode('40001', 'could not serialize access'))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError('x is undefined'))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
    expect(isDatabaseUnavailable('ECONNREFUSED')).toBe(false);
  });
});
