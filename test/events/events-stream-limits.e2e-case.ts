import { connect, NatsConnection } from 'nats';
import { EVENTS_STREAM } from '@app/contracts';
import { ensureEventsStream } from '@app/messaging';
import { runState } from '../support/run-state';
import { TestStack } from '../support/stack';
import { sleep } from '../support/wait';

const DAY_NS = 24 * 3600 * 1e9;

/**
 * The EVENTS stream's replicas, size cap and age come from EVENTS_STREAM_REPLICAS, _MAX_BYTES and _MAX_AGE:
 * an app creates the stream with them, and brings an existing stream to them at start.
 */
describe('EVENTS stream limits are configuration', () => {
  let nc: NatsConnection;
  let stack: TestStack | undefined;
  const limits = async () => {
    const { config } = await (await nc.jetstreamManager()).streams.info(EVENTS_STREAM);
    return { replicas: config.num_replicas, maxBytes: config.max_bytes, maxAge: config.max_age };
  };

  beforeAll(async () => {
    nc = await connect({ servers: runState().natsUrl });
  });
  afterAll(async () => {
    await stack?.stop();
    // The run's other tests share this server: back to the defaults.
    await ensureEventsStream(nc);
    await nc.close();
  });

  it('defaults: one replica, no size cap, 30 days', async () => {
    await ensureEventsStream(nc);
    expect(await limits()).toEqual({ replicas: 1, maxBytes: -1, maxAge: 30 * DAY_NS });
  });

  it('an app started with other limits applies them to the existing stream', async () => {
    stack = await TestStack.start({
      services: ['billing'],
      gateway: false,
      env: { EVENTS_STREAM_MAX_BYTES: '1073741824', EVENTS_STREAM_MAX_AGE: 'P7D' },
    });
    const until = Date.now() + 10_000;
    let seen = await limits();
    while (seen.maxAge !== 7 * DAY_NS && Date.now() < until) {
      await sleep(100);
      seen = await limits();
    }
    expect(seen).toEqual({ replicas: 1, maxBytes: 1073741824, maxAge: 7 * DAY_NS });
  });
});
