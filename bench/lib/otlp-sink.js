'use strict';

const http = require('node:http');

/**
 * A stand-in for an OpenTelemetry collector: accepts OTLP/HTTP trace exports (POST /v1/traces) on the loopback
 * interface and answers 200. By default it discards them (the bench measures the apps' cost of tracing, not a
 * collector's); with `keep`, it decodes OTLP/JSON and keeps every span, flattened with its app's name, for
 * tests to read.
 */
async function startOtlpSink({ keep = false } = {}) {
  const spans = [];
  let requests = 0;
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => keep && chunks.push(c));
    req.on('end', () => {
      requests++;
      if (keep && req.url === '/v1/traces') spans.push(...flatten(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    spans,
    requests: () => requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** OTLP/JSON `resourceSpans` as plain spans: app, name, kind, ids, attributes as an object, links. */
function flatten(body) {
  const out = [];
  for (const rs of body.resourceSpans ?? []) {
    const app = attributes(rs.resource?.attributes)['service.name'];
    for (const ss of rs.scopeSpans ?? []) {
      for (const s of ss.spans ?? []) {
        out.push({
          app,
          name: s.name,
          kind: s.kind,
          traceId: s.traceId,
          spanId: s.spanId,
          parentSpanId: s.parentSpanId || undefined,
          status: s.status?.code ?? 0,
          attributes: attributes(s.attributes),
          links: (s.links ?? []).map((l) => ({ traceId: l.traceId, spanId: l.spanId })),
          start: BigInt(s.startTimeUnixNano),
        });
      }
    }
  }
  return out;
}

function attributes(list = []) {
  const o = {};
  for (const { key, value } of list)
    o[key] = value?.stringValue ?? value?.intValue ?? value?.boolValue ?? value?.doubleValue;
  return o;
}

module.exports = { startOtlpSink };

// Forked by the bench (`--tracing`): a discarding sink of its own process, so it does not share the load
// generator's event loop; it says its port to the parent and, on SIGTERM, how much it received.
if (require.main === module) {
  startOtlpSink().then((sink) => {
    process.send?.({ listening: Number(new URL(sink.url).port) });
    process.on('SIGTERM', () => {
      process.stdout.write(`otlp-sink: ${sink.requests()} export requests received\n`);
      process.exit(0);
    });
  });
}
