'use strict';

/**
 * Reading V8 `.cpuprofile` files (what `node --cpu-prof` writes): the samples of a time window, CPU by stage of
 * a purchase (STAGES, first match from the sampled frame outwards) and the heaviest functions. Timestamps of a
 * profile are CLOCK_MONOTONIC microseconds, the clock of `process.hrtime` in every process of the host, so the
 * bench's own measured window selects the samples of the measured seconds.
 */

const fs = require('node:fs');

/**
 * Stages, tried in order on each frame from the sampled one outwards; the first frame that matches names the
 * sample's stage. `url` is the script's path or URL, `fn` the function's name.
 */
const STAGES = [
  { stage: 'garbage collection', fn: /^\(garbage collector\)$/ },
  { stage: 'idle', fn: /^\(idle\)$/ },
  { stage: 'tracing', url: /@opentelemetry|observability\/src\/trac/ },
  {
    stage: 'logging',
    url: /node_modules\/(pino|pino-std-serializers|sonic-boom|fast-redact|on-exit-leak-free)\/|observability\/src\/log/,
  },
  { stage: 'metrics', url: /node_modules\/prom-client\/|observability\/src\/metric/ },
  { stage: 'idempotency', url: /libs\/idempotency\/|gateway-idempotency|payments\/src\/idempotency\// },
  {
    stage: 'validation',
    url: /node_modules\/(class-validator|class-transformer|validator)\/|validation\.pipe|field-aliases|ignored-fields/,
  },
  { stage: 'auth', url: /apps\/gateway\/src\/auth\// },
  { stage: 'outbox', url: /libs\/outbox\// },
  { stage: 'reservation', url: /payments\/src\/reservation\// },
  { stage: 'acquirer call', url: /payments\/src\/(connector|routing|card)\/|acquirer/ },
  { stage: 'record', url: /payments\/src\/(purchase|payment|operations)\// },
  {
    stage: 'postgres client',
    url: /node_modules\/(pg|pg-protocol|pg-pool|pg-types|postgres-[a-z]+|typeorm)\/|libs\/database\//,
  },
  {
    stage: 'NATS encode/decode',
    url: /node_modules\/(nats|@nats-io\/[a-z-]+|@nestjs\/microservices)\/|libs\/messaging\//,
  },
  { stage: 'reply', url: /fast-json-stringify|node_modules\/fastify\/lib\/reply|error-response|send-error/ },
  {
    stage: 'HTTP parse and routing',
    url: /node_modules\/(fastify|find-my-way|light-my-request|@fastify\/[a-z-]+|avvio)\/|fastify-hooks|node:_http|node:internal\/http/,
  },
  { stage: 'socket I/O', url: /node:net|node:internal\/(stream_base_commons|streams)|node:stream/ },
  { stage: 'Nest pipeline', url: /node_modules\/@nestjs\/(core|common|platform-fastify)\// },
  { stage: 'crypto', url: /node:crypto|node:internal\/crypto/ },
  {
    stage: 'event loop, timers, promises',
    url: /node:internal\/(process\/task_queues|timers|async_hooks)|node:timers/,
  },
];

/** Loads a profile: nodes by id with parents, samples with their time (µs, monotonic). */
function load(file) {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
  const byId = new Map();
  for (const n of profile.nodes) byId.set(n.id, { ...n, parent: undefined });
  for (const n of byId.values()) for (const c of n.children || []) byId.get(c).parent = n;
  const samples = [];
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i];
    const next = i + 1 < profile.timeDeltas.length ? profile.timeDeltas[i + 1] : 0;
    samples.push({ node: byId.get(profile.samples[i]), at: t, us: Math.max(0, next) });
  }
  return { profile, byId, samples, urls: profile.nodes.map((n) => n.callFrame.url) };
}

/** The samples between two monotonic times in microseconds (both ends optional). */
function inWindow(samples, fromUs, toUs) {
  return samples.filter((s) => (fromUs === undefined || s.at >= fromUs) && (toUs === undefined || s.at <= toUs));
}

function stageOf(node) {
  for (let n = node; n; n = n.parent) {
    const { url, functionName } = n.callFrame;
    for (const rule of STAGES) {
      if (rule.fn && rule.fn.test(functionName)) return rule.stage;
      if (rule.url && url && rule.url.test(url)) return rule.stage;
    }
  }
  const top = node.callFrame.functionName;
  return top === '(program)' ? 'native and V8 (program)' : 'other JavaScript';
}

/**
 * Samples per stage, idle left out. Counted, not weighted by the time between samples: that time is wall time,
 * and on a loaded host a process waiting for a core leaves one long gap that would all go to the sample before
 * it. The counts give each stage's share; the process's CPU time (/proc) gives the total.
 */
function byStage(samples) {
  const out = {};
  for (const s of samples) {
    const stage = stageOf(s.node);
    if (stage === 'idle') continue;
    out[stage] = (out[stage] || 0) + 1;
  }
  return out;
}

/** The `limit` heaviest functions by self time: `{ name, us }`. */
function topFunctions(samples, limit = 25) {
  const self = new Map();
  for (const s of samples) {
    const { functionName, url, lineNumber } = s.node.callFrame;
    if (functionName === '(idle)') continue;
    const short = url ? url.replace(/^.*node_modules\//, '~/').replace(/^.*\/dist\//, '') : '';
    const key = `${functionName || '(anonymous)'} ${short}:${lineNumber + 1}`;
    self.set(key, (self.get(key) || 0) + s.us);
  }
  return [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([name, us]) => ({ name, us }));
}

module.exports = { STAGES, byStage, inWindow, load, stageOf, topFunctions };
