import { DeadlineExceeded, withDeadline } from './deadline';

describe('withDeadline', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('answers what the call answers in time, and leaves no timer behind', async () => {
    await expect(withDeadline(Promise.resolve('ok'), 100)).resolves.toBe('ok');
    await expect(withDeadline(Promise.reject(new Error('refused')), 100)).rejects.toThrow('refused');
    expect(jest.getTimerCount()).toBe(0);
  });

  it('rejects with DeadlineExceeded when the call has not settled in time', async () => {
    let settled = false;
    const outcome = withDeadline(new Promise<string>(() => undefined), 100);
    void outcome.catch(() => undefined).finally(() => (settled = true));
    jest.advanceTimersByTime(99);
    await Promise.resolve();
    expect(settled).toBe(false);
    jest.advanceTimersByTime(1);
    await expect(outcome).rejects.toEqual(new DeadlineExceeded(100));
  });
});
