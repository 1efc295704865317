import { randomBytes } from 'node:crypto';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { DataSource } from 'typeorm';
import { ensureDatabase, GroupedTransactions, runStatement, statement } from '@app/database';
import { inSpan, startTracing } from '@app/observability';
import { runState } from '../support/run-state';

const INSERT = statement('span_test_insert', 'INSERT INTO items (id) VALUES ($1)');

/**
 * With tracing on, a pipelined transaction is one span; works that share a group-committed transaction share
 * its span, the child of the first work's span, linked to every work's (real PostgreSQL, in-memory exporter).
 */
describe('transaction spans', () => {
  const exporter = new InMemorySpanExporter();
  let ds: DataSource;

  beforeAll(async () => {
    await startTracing({ app: 'test', sampleRatio: 1, spanProcessor: new SimpleSpanProcessor(exporter) });
    const url = `${runState().pgBase}/t_${runState().runId}_${randomBytes(4).toString('hex')}_spans`;
    await ensureDatabase(url);
    ds = await new DataSource({ type: 'postgres', url, extra: { max: 2, pipeline: true } }).initialize();
    await ds.query('CREATE TABLE items (id int PRIMARY KEY)');
  });
  afterAll(() => ds?.destroy());

  it('a group of works is one transaction span, linked to each work', async () => {
    // One in flight at a time: the works submitted while the first group is out go together in the second.
    const grouped = new GroupedTransactions(ds, 1, 32);
    await Promise.all(
      [1, 2, 3, 4].map((id) =>
        inSpan(`request ${id}`, { root: true }, () => grouped.run((m) => runStatement(m, INSERT, [id]))),
      ),
    );
    const spans = exporter.getFinishedSpans();
    const requests = spans.filter((s) => s.name.startsWith('request '));
    const transactions = spans.filter((s) => s.name === 'db transaction');
    expect(requests).toHaveLength(4);
    expect(transactions.length).toBeLessThan(4);
    for (const t of transactions) {
      const parent = requests.find((r) => r.spanContext().spanId === t.parentSpanContext?.spanId);
      expect(parent).toBeDefined();
      expect(t.spanContext().traceId).toBe(parent!.spanContext().traceId);
    }
    const grouping = transactions.find((t) => t.links.length > 1)!;
    expect(grouping).toBeDefined();
    const linked = grouping.links.map((l) => l.context.spanId);
    expect(linked).toContain(grouping.parentSpanContext!.spanId);
    // Every request is either a transaction's parent or linked from a grouped one.
    for (const r of requests) {
      const id = r.spanContext().spanId;
      expect(
        transactions.some((t) => t.parentSpanContext?.spanId === id || t.links.some((l) => l.context.spanId === id)),
      ).toBe(true);
    }
  });
});
