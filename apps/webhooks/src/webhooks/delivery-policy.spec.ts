import { decideAttempt, SendOutcome } from './delivery-policy';
import { statesBefore } from './delivery-state';

const ok: SendOutcome = {
  ok: true,
  responseStatus: 200,
  responseExcerpt: null,
  durationMs: 5,
  error: null,
  permanent: false,
};
const failed: SendOutcome = {
  ok: false,
  responseStatus: 500,
  responseExcerpt: null,
  durationMs: 5,
  error: 'http_status',
  permanent: false,
};
const schedule = [30, 300, 1800];

describe('delivery attempt transitions', () => {
  it('a 2xx succeeds on any attempt', () => {
    expect(decideAttempt(ok, 1, schedule)).toEqual({
      attempt: 'succeeded',
      delivery: 'succeeded',
      retryInSeconds: null,
    });
    expect(decideAttempt(ok, 4, schedule).attempt).toBe('succeeded');
  });

  it('a failure retries after schedule[attempt - 1] seconds, then is dead after the last one', () => {
    expect([1, 2, 3].map((n) => decideAttempt(failed, n, schedule))).toEqual([
      { attempt: 'failed', delivery: 'pending', retryInSeconds: 30 },
      { attempt: 'failed', delivery: 'pending', retryInSeconds: 300 },
      { attempt: 'failed', delivery: 'pending', retryInSeconds: 1800 },
    ]);
    expect(decideAttempt(failed, 4, schedule)).toEqual({ attempt: 'dead', delivery: 'dead', retryInSeconds: null });
  });

  it('a permanent failure is dead at once', () => {
    expect(decideAttempt({ ...failed, permanent: true }, 1, schedule).attempt).toBe('dead');
  });

  it('only a pending attempt can end, and an ended one never changes', () => {
    for (const to of ['succeeded', 'failed', 'dead'] as const) expect(statesBefore(to)).toEqual(['pending']);
    expect(statesBefore('pending')).toEqual([]);
  });
});
