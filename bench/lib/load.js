'use strict';

const autocannon = require('autocannon');
const { steadyLoad } = require('./steady');

/** The instance running now, so Ctrl-C can stop it before cleaning up. */
let current;

function stopCurrent() {
  if (current) current.stop();
}

function runOnce(opts) {
  if (opts.rate) {
    const run = steadyLoad(opts, { rate: opts.rate, durationSec: opts.duration, connections: opts.connections });
    current = run;
    return run.promise.finally(() => (current = undefined));
  }
  return new Promise((resolve, reject) => {
    current = autocannon(opts, (err, result) => {
      current = undefined;
      if (err) reject(err);
      else resolve(result);
    });
  });
}

/**
 * One measured run: `warmup` seconds of the same load first (JIT, pools, caches; its numbers are dropped),
 * then `duration` seconds that count. `request` holds url and method, headers, body or requests. Without a
 * rate autocannon loads as fast as the server answers; with one, steady.js sends at exactly that rate.
 * `onMeasureStart` is called between the two, so CPU can be sampled over the measured part only.
 */
async function measure(request, { connections, duration, warmup, rate, onMeasureStart }) {
  const base = { ...request, connections, timeout: 10 };
  if (rate) base.rate = rate;
  if (warmup > 0) await runOnce({ ...base, duration: warmup });
  if (onMeasureStart) onMeasureStart();
  const result = await runOnce({ ...base, duration });
  return rate ? result : summarize(result);
}

function round(n, digits = 1) {
  return typeof n === 'number' && Number.isFinite(n) ? Number(n.toFixed(digits)) : null;
}

function summarize(r) {
  const statusCodes = {};
  for (const [code, v] of Object.entries(r.statusCodeStats || {})) statusCodes[code] = v.count;
  return {
    rps: round(r.requests.average),
    requests: r.requests.total,
    latencyMs: {
      avg: round(r.latency.average, 2),
      p50: r.latency.p50,
      p97_5: r.latency.p97_5,
      p99: r.latency.p99,
      max: r.latency.max,
    },
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    statusCodes,
    durationSec: round(r.duration, 2),
  };
}

module.exports = { measure, stopCurrent };
