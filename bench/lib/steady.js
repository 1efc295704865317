'use strict';

const http = require('node:http');
const { performance } = require('node:perf_hooks');

/**
 * Open-loop load at a steady rate: request i is due at start + i/rate, whatever happened to the earlier ones,
 * and its latency counts from that due time (so a stalled server or a late generator shows in the numbers
 * instead of silently lowering the rate: no coordinated omission).
 *
 * Why not autocannon's `overallRate`: it resets a per-connection quota once a second, so each second's
 * requests leave in one burst at the top of the second and its latency correction assumes a 1 ms interval;
 * "300 req/s" there measures a 300-request burst, not a steady 300 req/s.
 */
function steadyLoad(request, { rate, durationSec, connections, timeoutSec = 10 }) {
  const target = new URL(request.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const template = request.requests ? request.requests[0] : request;
  const total = Math.round(rate * durationSec);
  const latencies = [];
  // BENCH_STEADY_TRACE=file: each request's due time (ms from the start) and latency, for finding a tail's cause.
  const trace = process.env.BENCH_STEADY_TRACE ? [] : undefined;
  let start;
  const statusCodes = {};
  let errors = 0;
  let timeouts = 0;
  let sent = 0;
  let finished = 0;
  let stopped = false;
  let timer;

  return {
    promise: new Promise((resolve) => {
      start = performance.now();
      const done = () => {
        if (finished < total && !stopped) return;
        clearTimeout(timer);
        agent.destroy();
        if (trace) require('node:fs').writeFileSync(process.env.BENCH_STEADY_TRACE, JSON.stringify(trace));
        resolve(
          summarize({ latencies, statusCodes, errors, timeouts, durationSec: (performance.now() - start) / 1000 }),
        );
      };
      const send = (dueAt) => {
        const spec = template.setupRequest ? template.setupRequest({ ...template }) : template;
        const body = spec.body;
        const req = http.request(
          {
            host: target.hostname,
            port: target.port,
            path: spec.path || target.pathname,
            method: spec.method || 'GET',
            headers: { ...(spec.headers || {}), ...(body ? { 'content-length': Buffer.byteLength(body) } : {}) },
            agent,
            timeout: timeoutSec * 1000,
          },
          (res) => {
            res.resume();
            res.on('end', () => {
              statusCodes[res.statusCode] = (statusCodes[res.statusCode] || 0) + 1;
              latencies.push(performance.now() - dueAt);
              if (trace) trace.push([Math.round(dueAt - start), Math.round(performance.now() - dueAt)]);
              finished++;
              done();
            });
          },
        );
        req.on('timeout', () => {
          timeouts++;
          req.destroy(new Error('timeout'));
        });
        req.on('error', () => {
          errors++;
          finished++;
          done();
        });
        req.end(body);
      };
      const tick = () => {
        if (stopped) return done();
        const now = performance.now();
        while (sent < total && start + (sent * 1000) / rate <= now) send(start + (sent++ * 1000) / rate);
        if (sent < total) timer = setTimeout(tick, Math.max(0, start + (sent * 1000) / rate - performance.now()));
      };
      tick();
    }),
    stop() {
      stopped = true;
    },
  };
}

function percentile(sorted, p) {
  if (!sorted.length) return null;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function summarize({ latencies, statusCodes, errors, timeouts, durationSec }) {
  const sorted = latencies.sort((a, b) => a - b);
  const ok = Object.entries(statusCodes).reduce((n, [code, count]) => n + (code < 300 && code >= 200 ? count : 0), 0);
  const all = Object.values(statusCodes).reduce((n, c) => n + c, 0);
  const ms = (v) => (v === null ? null : Math.round(v));
  return {
    rps: Number((all / durationSec).toFixed(1)),
    requests: all,
    latencyMs: {
      avg: sorted.length ? Number((sorted.reduce((a, b) => a + b, 0) / sorted.length).toFixed(2)) : null,
      p50: ms(percentile(sorted, 50)),
      p97_5: ms(percentile(sorted, 97.5)),
      p99: ms(percentile(sorted, 99)),
      max: ms(sorted.length ? sorted[sorted.length - 1] : null),
    },
    non2xx: all - ok,
    errors,
    timeouts,
    statusCodes,
    durationSec: Number(durationSec.toFixed(2)),
  };
}

module.exports = { steadyLoad };
