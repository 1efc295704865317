#!/usr/bin/env node
// `npm start`: build if needed, then run the four services and the gateway in this terminal with prefixed
// logs. Services start first so the gateway never answers 503 for a service that is still migrating.
const { spawn, spawnSync } = require('node:child_process');
const path = require('node:path');

const { withAppNodeOptions } = require('./app-node-options');

const root = path.join(__dirname, '..');
const build = spawnSync(process.execPath, [path.join(__dirname, 'ensure-build.js')], { stdio: 'inherit', cwd: root });
if (build.status !== 0) process.exit(build.status ?? 1);

const apps = [
  { name: 'payments', port: process.env.PAYMENTS_HTTP_PORT || 3001, color: 36 },
  { name: 'payment-links', port: process.env.PAYMENT_LINKS_HTTP_PORT || 3002, color: 35 },
  { name: 'billing', port: process.env.BILLING_HTTP_PORT || 3003, color: 33 },
  { name: 'webhooks', port: process.env.WEBHOOKS_HTTP_PORT || 3004, color: 34 },
  { name: 'gateway', port: process.env.PORT || 3000, color: 32 },
];
const width = Math.max(...apps.map((a) => a.name.length));
const children = new Map();
let stopping = false;

function prefixLines(stream, app, out) {
  let buffer = '';
  const tag = `\x1b[${app.color}m${app.name.padEnd(width)}\x1b[0m | `;
  stream.on('data', (chunk) => {
    buffer += chunk.toString();
    const lines = buffer.split('\n');
    buffer = lines.pop();
    for (const line of lines) out.write(`${tag}${line}\n`);
  });
  stream.on('end', () => buffer && out.write(`${tag}${buffer}\n`));
}

function start(app) {
  const child = spawn(process.execPath, [path.join(root, 'dist/apps', app.name, 'src/main.js')], {
    cwd: root,
    // Local development runs on plain http://localhost: the dashboard cookie goes without Secure unless told.
    env: withAppNodeOptions({ DASHBOARD_INSECURE_COOKIE: 'true', ...process.env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  prefixLines(child.stdout, app, process.stdout);
  prefixLines(child.stderr, app, process.stderr);
  child.on('exit', (code, signal) => {
    children.delete(app.name);
    if (!stopping) {
      console.error(`${app.name} exited (${signal ?? code}); stopping the others`);
      stop(code || 1);
    } else if (!children.size) process.exit(process.exitCode ?? 0);
  });
  children.set(app.name, child);
}

async function ready(app, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !stopping) {
    try {
      const res = await fetch(`http://127.0.0.1:${app.port}/health/ready`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  if (!stopping) throw new Error(`${app.name} was not ready on port ${app.port} in time`);
}

// Each app finishes what it holds within SHUTDOWN_TIMEOUT_MS of SIGTERM; this waits that long and a little.
const STOP_WAIT_MS = (Number(process.env.SHUTDOWN_TIMEOUT_MS) || 20_000) + 2_000;

function stop(code) {
  if (stopping) return;
  stopping = true;
  process.exitCode = code;
  for (const child of children.values()) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), STOP_WAIT_MS).unref();
  if (!children.size) process.exit(code);
}

process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));

(async () => {
  const services = apps.filter((a) => a.name !== 'gateway');
  services.forEach(start);
  await Promise.all(services.map((a) => ready(a)));
  start(apps.find((a) => a.name === 'gateway'));
})().catch((e) => {
  console.error(e.message);
  stop(1);
});
