/* global AbortSignal */
'use strict';

const { fork, spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');

const CLOCK_TICKS = 100; // USER_HZ on Linux: /proc/<pid>/stat times are in 1/100 s.

/** A port nobody listens on right now (the usual small race with other starters is acceptable here). */
/**
 * A port for an app to listen on, free now on every interface, picked below the kernel's ephemeral range
 * (ip_local_port_range, 32768–60999 by default). A port from `listen(0)` comes from that range, where any
 * outgoing connection made before the app binds (a pool, a NATS client, the load generator) may take it: the
 * app then fails with EADDRINUSE.
 */
async function freePort() {
  for (let tries = 0; tries < 100; tries++) {
    const port = 20000 + Math.floor(Math.random() * 12000);
    if (await canListen(port)) return port;
  }
  throw new Error('no free port found between 20000 and 32000');
}

function canListen(port) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, () => server.close(() => resolve(true)));
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Every child the bench starts, so they are all stopped on the way out, whatever the reason. Output goes to
 * one log file per child: a file costs the bench process nothing, a pipe would have to be drained by the
 * same event loop that drives the load.
 */
class Children {
  constructor(logDir) {
    this.logDir = logDir;
    this.list = [];
    this.closed = false;
  }

  logFile(name) {
    return `${this.logDir}/${name}.log`;
  }

  /** Spawns a program (an app's main.js under node, or nats-server). */
  spawn(name, command, args, env) {
    this.checkOpen(name);
    const fd = fs.openSync(this.logFile(name), 'w');
    const child = spawn(command, args, { env, stdio: ['ignore', fd, fd] });
    fs.closeSync(fd);
    return this.track(name, child);
  }

  /** Forks a bench server script; it reports its port over IPC once it listens. */
  fork(name, script, env) {
    this.checkOpen(name);
    const fd = fs.openSync(this.logFile(name), 'w');
    const child = fork(script, [], { env, stdio: ['ignore', fd, fd, 'ipc'] });
    fs.closeSync(fd);
    return this.track(name, child);
  }

  /** After stopAll nothing new may start: it would outlive the bench. */
  checkOpen(name) {
    if (this.closed) throw new Error(`not starting ${name}: the bench is stopping`);
  }

  track(name, child) {
    const entry = { name, child, pid: child.pid, exited: false, exit: undefined };
    entry.exitPromise = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        entry.exited = true;
        entry.exit = signal ?? code;
        resolve(entry.exit);
      });
      child.once('error', (e) => {
        entry.exited = true;
        entry.exit = e.message;
        resolve(entry.exit);
      });
    });
    this.list.push(entry);
    return entry;
  }

  /** Waits for a forked server's `{ listening: port }` message. */
  async listening(entry, timeoutMs = 30_000) {
    const message = new Promise((resolve) => {
      entry.child.on('message', (m) => m && m.listening && resolve(m.listening));
    });
    const port = await Promise.race([message, entry.exitPromise.then(() => undefined), sleep(timeoutMs)]);
    if (!port) throw new Error(`${entry.name} did not start: ${this.describeFailure(entry)}`);
    return port;
  }

  describeFailure(entry) {
    const how = entry.exited ? `exited (${entry.exit})` : 'no answer in time';
    return `${how}; last log lines:\n${this.tail(entry.name)}`;
  }

  /** The end of a child's log without stack frames, which would push the actual message out of view. */
  tail(name, lines = 12) {
    try {
      const all = fs.readFileSync(this.logFile(name), 'utf8').trimEnd().split('\n');
      return all
        .filter((l) => !/^\s+at /.test(l))
        .slice(-lines)
        .join('\n');
    } catch {
      return '(no log)';
    }
  }

  /** SIGTERM, then SIGKILL after `graceMs`. */
  async stop(entry, graceMs = 5000) {
    if (entry.exited) return;
    entry.child.kill('SIGTERM');
    const done = await Promise.race([entry.exitPromise.then(() => true), sleep(graceMs).then(() => false)]);
    if (!done) {
      entry.child.kill('SIGKILL');
      await entry.exitPromise;
    }
  }

  async stopAll() {
    this.closed = true;
    const running = this.list.filter((e) => !e.exited);
    await Promise.all(running.map((e) => this.stop(e)));
  }
}

/** Polls `url` until it answers 200; fails early when the child behind it exits. */
async function waitForHttp(url, entry, children, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (entry && entry.exited) throw new Error(`${entry.name} stopped: ${children.describeFailure(entry)}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      const text = await res.text();
      if (res.status === 200) return;
      last = `${res.status} ${text.slice(0, 300)}`;
    } catch (e) {
      last = e.message;
    }
    await sleep(200);
  }
  const tail = entry ? `\n${children.tail(entry.name)}` : '';
  throw new Error(`${url} not ready after ${timeoutMs / 1000} s (last: ${last})${tail}`);
}

/** Resident set size in MB from /proc/<pid>/status, or undefined when the process is gone. */
function rssMb(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return m ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * V8 heap of an app from its /metrics (prom-client default metrics), in MB, to tell a big RSS made of heap
 * (objects kept alive) from one made of code, buffers and allocator slack. Undefined when not available.
 */
async function heapMb(metricsUrl) {
  try {
    const text = await (await fetch(metricsUrl, { signal: AbortSignal.timeout(2000) })).text();
    const value = (name) => {
      const m = new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+]+)$`, 'm').exec(text);
      return m ? Number((Number(m[1]) / 1024 / 1024).toFixed(1)) : undefined;
    };
    const used = value('nodejs_heap_size_used_bytes');
    return used === undefined ? undefined : { used, total: value('nodejs_heap_size_total_bytes') };
  } catch {
    return undefined;
  }
}

/** CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat. */
function cpuSeconds(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may contain spaces: fields are counted after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

/** Busy and total jiffies of the whole machine, from the first line of /proc/stat. */
function machineJiffies() {
  try {
    const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0];
    const v = line.trim().split(/\s+/).slice(1).map(Number);
    const idle = v[3] + (v[4] || 0); // idle + iowait
    const total = v.reduce((a, b) => a + b, 0);
    return { busy: total - idle, total };
  } catch {
    return undefined;
  }
}

/**
 * CPU seconds used so far by every process with this command name (e.g. all postgres backends), or only those
 * whose command line contains `cmdlineIncludes` (a backend's is `postgres: <user> <database> <client> <state>`).
 */
function cpuSecondsByCommand(command, cmdlineIncludes) {
  const out = new Map();
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== command) continue;
      if (cmdlineIncludes && !fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(cmdlineIncludes)) continue;
    } catch {
      continue;
    }
    const cpu = cpuSeconds(pid);
    if (cpu !== undefined) out.set(pid, cpu);
  }
  return out;
}

/** CPU % of one core that processes named `command` used between two samples (backends may come and go). */
function commandPercent(before, after, wall) {
  let seconds = 0;
  for (const [pid, cpu] of after) seconds += cpu - (before.get(pid) ?? 0);
  return Math.max(0, Number(((seconds / wall) * 100).toFixed(1)));
}

/**
 * Samples CPU time of some processes now; `.finish()` gives the % of one core each used since, plus how
 * much of the machine was busy and how much of that was neither the bench's processes nor Postgres
 * ("others": e.g. somebody's test run), which says how far the numbers are depressed by a shared machine.
 */
function cpuMeter(processes, { databasePrefix } = {}) {
  const startedAt = process.hrtime.bigint();
  const before = processes.map((p) => ({ ...p, cpu: cpuSeconds(p.pid) }));
  const machineBefore = machineJiffies();
  const postgresBefore = cpuSecondsByCommand('postgres');
  const oursBefore = databasePrefix && cpuSecondsByCommand('postgres', ` ${databasePrefix}_`);
  return {
    /** The monotonic time the meter started, in microseconds (the clock of a `.cpuprofile`). */
    startedAtUs: Number(startedAt / 1000n),
    finish() {
      const endedAt = process.hrtime.bigint();
      this.endedAtUs = Number(endedAt / 1000n);
      const wall = Number(endedAt - startedAt) / 1e9;
      const perProcess = {};
      let ours = 0;
      for (const p of before) {
        const now = cpuSeconds(p.pid);
        if (now === undefined || p.cpu === undefined) continue;
        perProcess[p.name] = Number((((now - p.cpu) / wall) * 100).toFixed(1));
        ours += perProcess[p.name];
      }
      // Postgres serves everybody on this machine; its share is shown apart and not counted as "others".
      if (postgresBefore.size) {
        perProcess['postgres (all clients)'] = commandPercent(postgresBefore, cpuSecondsByCommand('postgres'), wall);
        ours += perProcess['postgres (all clients)'];
      }
      // The backends serving the bench's own databases: the suite's share of PostgreSQL (a part of the above).
      if (oursBefore) {
        const after = cpuSecondsByCommand('postgres', ` ${databasePrefix}_`);
        perProcess['postgres (bench databases)'] = commandPercent(oursBefore, after, wall);
      }
      const machineAfter = machineJiffies();
      const cores = os.cpus().length;
      let machine;
      if (machineBefore && machineAfter && machineAfter.total > machineBefore.total) {
        const busyPct =
          ((machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total)) * cores * 100;
        machine = { cores, busyPct: Math.round(busyPct), othersPct: Math.max(0, Math.round(busyPct - ours)) };
      }
      return { perProcess, machine };
    },
  };
}

/** The machine's load while the bench runs, to tell readers whether the numbers were taken on a busy box. */
function machineLoad() {
  const [one, five] = os.loadavg();
  return { cores: os.cpus().length, loadavg1: Number(one.toFixed(2)), loadavg5: Number(five.toFixed(2)) };
}

/**
 * Waits until the processes (and Postgres) use less than `maxPercent` of one core over a second, or `timeoutMs`
 * passed: the previous scenario's backlog (outbox, webhook fan-out) is drained before the next one is measured.
 * Answers how long it took and whether it got quiet.
 */
async function waitForQuiet(processes, { maxPercent = 20, timeoutMs = 60_000 } = {}) {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    const meter = cpuMeter(processes);
    await sleep(1000);
    const { perProcess } = meter.finish();
    const busy = Object.values(perProcess).reduce((a, b) => a + b, 0);
    if (busy < maxPercent) return { quiet: true, ms: Date.now() - started };
  }
  return { quiet: false, ms: Date.now() - started };
}

module.exports = { Children, cpuMeter, freePort, heapMb, machineLoad, rssMb, sleep, waitForHttp, waitForQuiet };
