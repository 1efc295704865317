'use strict';
// Preloaded into an app's process (`node --require test/support/outbound-guard.js …`): every TCP or TLS
// connection the process opens (net, http, https, tls, fetch all go through net.Socket#connect) to an address
// that is not in OUTBOUND_GUARD_ALLOW ("host:port,…", its NATS server and its database) is written, one line
// each, to OUTBOUND_GUARD_LOG; with OUTBOUND_GUARD_MODE=refuse it then throws instead of connecting.
const fs = require('node:fs');
const net = require('node:net');

const log = process.env.OUTBOUND_GUARD_LOG;
const refuse = process.env.OUTBOUND_GUARD_MODE === 'refuse';
const allowed = new Set((process.env.OUTBOUND_GUARD_ALLOW || '').split(',').filter(Boolean));
if (!log) throw new Error('outbound-guard: OUTBOUND_GUARD_LOG is not set');
fs.appendFileSync(log, `# guard loaded in ${process.pid}\n`);

/** The host and port of net.Socket#connect's arguments: (options[, cb]), (port[, host][, cb]) or (path[, cb]). */
function targetOf(args) {
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  if (first && typeof first === 'object') {
    if (first.path) return undefined;
    return { host: first.host || 'localhost', port: Number(first.port) };
  }
  if (typeof first === 'string' && !/^\d+$/.test(first)) return undefined; // a Unix socket path
  return { host: typeof args[1] === 'string' ? args[1] : 'localhost', port: Number(first) };
}

const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function guardedConnect(...args) {
  const target = targetOf(args);
  if (target && !allowed.has(`${target.host}:${target.port}`)) {
    fs.appendFileSync(log, `${target.host}:${target.port}\n`);
    if (refuse) throw new Error(`outbound-guard: connection to ${target.host}:${target.port} refused`);
  }
  return connect.apply(this, args);
};
