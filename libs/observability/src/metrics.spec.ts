import { Metrics } from './metrics';

describe('Metrics', () => {
  it('counts changes of the readiness answer, not the answers', async () => {
    const m = new Metrics('test');
    for (const ready of [true, true, false, false, true]) m.readiness(ready);
    const text = await m.text();
    expect(text).toMatch(/^readiness_ready\{app="test"\} 1$/m);
    expect(text).toMatch(/^readiness_transitions_total\{app="test"\} 2$/m);
  });

  it('counts published events by type', async () => {
    const m = new Metrics('test');
    m.eventsPublished(['payment.captured', 'payment.captured', 'payment.refunded']);
    const text = await m.text();
    expect(text).toMatch(/^outbox_events_published_total\{type="payment.captured",app="test"\} 2$/m);
    expect(text).toMatch(/^outbox_events_published_total\{type="payment.refunded",app="test"\} 1$/m);
  });

  it('reads a gauge at each scrape, and answers NaN when the read fails', async () => {
    const m = new Metrics('test');
    let value: number | Error = 3;
    m.gaugeAtScrape('backlog_items', 'Items waiting', [], async () => {
      if (value instanceof Error) throw value;
      return [[{}, value]];
    });
    expect(await m.text()).toMatch(/^backlog_items\{app="test"\} 3$/m);
    value = 5;
    expect(await m.text()).toMatch(/^backlog_items\{app="test"\} 5$/m);
    value = new Error('database down');
    // prom-client writes "Nan", which Prometheus reads as NaN.
    expect(await m.text()).toMatch(/^backlog_items\{app="test"\} nan$/im);
  });
});
