import { settleNatsRequestsQuietly } from './settled-requests';

const { RequestOne } = require('nats/lib/nats-base-client/request') as {
  RequestOne: new (
    mux: { cancel(r: unknown): void; add?(r: unknown): void },
    subject: string,
    opts: { timeout: number },
    asyncTraces: boolean,
  ) => { resolver(err: Error | null, msg: unknown): void; deferred: Promise<unknown> };
};

const { NatsError } = require('nats/lib/nats-base-client/core') as {
  NatsError: { errorForCode(code: string): Error };
};

describe('settleNatsRequestsQuietly', () => {
  it('patches the nats 2.x request', () => {
    const original = RequestOne.prototype.resolver;
    settleNatsRequestsQuietly();
    expect(RequestOne.prototype.resolver).not.toBe(original);
  });

  it('answers the message, cancels the timer and leaves the mux, with no Error built', async () => {
    settleNatsRequestsQuietly();
    const cancelled: unknown[] = [];
    const r = new RequestOne({ cancel: (x) => cancelled.push(x) }, '_INBOX.x', { timeout: 60_000 }, false);
    // The unpatched resolver builds NatsError.errorForCode(Cancelled) here.
    const built = jest.spyOn(NatsError, 'errorForCode');
    r.resolver(null, 'answer');
    expect(built).not.toHaveBeenCalled();
    built.mockRestore();
    await expect(r.deferred).resolves.toBe('answer');
    expect(cancelled).toEqual([r]);
  });

  it('still rejects with the error of a failed request', async () => {
    settleNatsRequestsQuietly();
    const r = new RequestOne({ cancel: () => undefined }, '_INBOX.y', { timeout: 60_000 }, false);
    const failure = new Error('no responders');
    r.resolver(failure, undefined);
    await expect(r.deferred).rejects.toBe(failure);
  });
});
