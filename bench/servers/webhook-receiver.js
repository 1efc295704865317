'use strict';

/**
 * A merchant's webhook endpoint for the webhook bench: HTTPS on 127.0.0.1 with the certificate in CERT_FILE and
 * KEY_FILE (the delivering app trusts it through NODE_EXTRA_CA_CERTS). `POST /hook` takes a delivery and answers
 * the current status (200, or 503 while the bench plays a dead endpoint); it records, per event id, when the
 * first try arrived and when the first accepted one did, and how long after the event was created; and the TLS
 * connections it accepted (and how many resumed a session).
 *
 * The bench drives it on the same server: `POST /control/status` {status} switches the answer (and notes the
 * time of a switch back to 2xx), `POST /control/reset` forgets everything, `GET /control/stats` reports.
 */
const fs = require('node:fs');
const https = require('node:https');
const { announce, fail } = require('./common');

let status = 200;
let recoveredAt;
/** event id → { firstTryAt, acceptedAt, lagMs } */
let events = new Map();
let tries = 0;
let refused = 0;
/** TLS connections accepted, and how many of them resumed a session. */
let connections = 0;
let resumed = 0;

function record(body) {
  const now = Date.now();
  tries++;
  let id;
  let createdAt;
  try {
    const parsed = JSON.parse(body);
    id = parsed.id;
    createdAt = Date.parse(parsed.createdAt);
  } catch {
    id = undefined;
  }
  if (!id) return 400;
  let seen = events.get(id);
  if (!seen) events.set(id, (seen = { firstTryAt: now, acceptedAt: undefined, lagMs: undefined }));
  if (status >= 300) {
    refused++;
    return status;
  }
  if (seen.acceptedAt === undefined) {
    seen.acceptedAt = now;
    seen.lagMs = Number.isFinite(createdAt) ? now - createdAt : undefined;
  }
  return status;
}

function percentile(sorted, p) {
  if (!sorted.length) return null;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function stats() {
  const accepted = [...events.values()].filter((e) => e.acceptedAt !== undefined);
  const at = accepted.map((e) => e.acceptedAt);
  const lags = accepted
    .map((e) => e.lagMs)
    .filter((v) => v !== undefined)
    .sort((a, b) => a - b);
  return {
    status,
    recoveredAt,
    tries,
    refused,
    connections,
    resumed,
    events: events.size,
    accepted: accepted.length,
    firstAcceptedAt: at.length ? Math.min(...at) : null,
    lastAcceptedAt: at.length ? Math.max(...at) : null,
    lagMs: { p50: percentile(lags, 50), p97_5: percentile(lags, 97.5), p99: percentile(lags, 99) },
  };
}

function answer(res, code, body) {
  res.writeHead(code, { 'content-type': 'application/json' }).end(body === undefined ? '' : JSON.stringify(body));
}

function handle(req, res, body) {
  if (req.method === 'POST' && req.url === '/hook') return answer(res, record(body));
  if (req.method === 'GET' && req.url === '/control/stats') return answer(res, 200, stats());
  if (req.method === 'POST' && req.url === '/control/reset') {
    events = new Map();
    tries = 0;
    refused = 0;
    connections = 0;
    resumed = 0;
    recoveredAt = undefined;
    return answer(res, 200, stats());
  }
  if (req.method === 'POST' && req.url === '/control/status') {
    const next = Number(JSON.parse(body).status);
    if (status >= 300 && next < 300) recoveredAt = Date.now();
    status = next;
    return answer(res, 200, stats());
  }
  return answer(res, 404);
}

try {
  const server = https.createServer({
    cert: fs.readFileSync(process.env.CERT_FILE),
    key: fs.readFileSync(process.env.KEY_FILE),
    keepAliveTimeout: 30_000,
  });
  server.on('secureConnection', (socket) => {
    connections++;
    if (socket.isSessionReused()) resumed++;
  });
  server.on('request', (req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  server.listen(0, '127.0.0.1', () => announce(server.address().port, () => server.close()));
} catch (e) {
  fail(e);
}
