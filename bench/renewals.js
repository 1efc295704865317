#!/usr/bin/env node
/**
 * `npm run bench:renewals [-- --counts=10000,100000]`: renewal throughput through the whole path (issue 10,
 * Performance): billing claims due subscriptions, charges each as an MIT at payments and marks its invoice
 * paid. For each count, a fresh set of that many subscriptions due an hour ago is seeded straight into the
 * billing database (copies of real subscriptions, on a few vault tokens made through payments), then the
 * time until every one has a paid renewal invoice is measured, with the billing process's peak RSS. Prints
 * renewals/s per run and the ratio of the runs' times (linear cost: ratio ≈ count ratio).
 * `--soft-declines=20`: the merchant gets a connection `primary` tried before the default `sandbox` one, and
 * that share (%) of the subscriptions is on the sandbox cascade card (declined as `retry` on every connection
 * but `sandbox`): each of those renewals is declined once on `primary` and paid on `sandbox` (issue 39).
 */
'use strict';

const crypto = require('node:crypto');
const path = require('node:path');
const fs = require('node:fs');
const { Client } = require('pg');
const { connect } = require('nats');
const { parseOptions } = require('./lib/options');
const { Children, cpuMeter, machineLoad, rssMb, sleep } = require('./lib/procs');
const { startStack } = require('./lib/stack');
const { purchaseBody } = require('./scenarios');

const say = (text) => process.stdout.write(`[renewals] ${text}\n`);
const TOKENS = 20;
const TARGET_100K_S = 120;
const TARGET_RSS_MB = 200;

async function call(stack, method, route, body) {
  const res = await fetch(`${stack.gatewayUrl}${route}`, {
    method,
    headers: {
      authorization: `Bearer ${stack.key}`,
      'content-type': 'application/json',
      'idempotency-key': crypto.randomUUID(),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const parsed = await res.json().catch(() => undefined);
  if (res.status >= 300) throw new Error(`${method} ${route}: ${res.status} ${JSON.stringify(parsed).slice(0, 300)}`);
  return parsed;
}

async function query(url, sql, params = []) {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/** The sandbox card declined as `retry` on every connection but the default `sandbox` one (docs/testing.md). */
const CASCADE_CARD = '4000000000000200';

/**
 * TOKENS real subscriptions (one CIT each, so one vault token each) to copy; `softDeclinePct` % of them on the
 * cascade card (the seeded copies cycle through the templates, so the same share of renewals).
 */
async function templates(stack, softDeclinePct = 0) {
  const plan = await call(stack, 'POST', '/v1/subscription/plan', {
    name: 'Bench monthly',
    interval: 'month',
    amount: 999,
    currency: 'USD',
  });
  const ids = [];
  const cascading = Math.round((TOKENS * softDeclinePct) / 100);
  for (let i = 0; i < TOKENS; i++) {
    const { card } = purchaseBody(stack.merchantCode, 'unused');
    if (i < cascading) card.cardData.cardNumber = CASCADE_CARD;
    const sub = await call(stack, 'POST', '/v1/subscription', {
      planId: plan.id,
      customerEmail: `renewal${i}@example.com`,
      card,
    });
    ids.push(sub.id);
  }
  return ids;
}

/** `count` copies of the templates, due an hour ago (real time), tagged with `run` in their metadata. */
async function seed(url, templateIds, count, run) {
  await query(
    url,
    `INSERT INTO subscriptions (id, merchant_code, environment, merchant_id, plan_id, status, customer_email,
       card_token, card_brand, billing_anchor, current_period_start, current_period_end, next_billing_date,
       cycles_completed, activated_at, metadata, created_at, updated_at)
     SELECT gen_random_uuid(), t.merchant_code, t.environment, t.merchant_id, t.plan_id, 'active', t.customer_email,
       t.card_token, t.card_brand, now() - interval '1 month 1 hour', now() - interval '1 month 1 hour',
       now() - interval '1 hour', now() - interval '1 hour', 1, now(), jsonb_build_object('run', $3::text), now(), now()
     FROM generate_series(1, $2::int) g
     JOIN LATERAL (SELECT * FROM subscriptions WHERE id = ($1::uuid[])[1 + g % array_length($1::uuid[], 1)]) t ON true`,
    [templateIds, count, run],
  );
  await query(url, 'ANALYZE subscriptions');
}

/**
 * Counts the invoices paid from now on, from their `invoice.paid` events on NATS (a plain subscription beside
 * the EVENTS stream; ids are counted once, as an event may be published twice). Polling the database for
 * progress instead cost the run it measured a good share of a core at 100,000.
 */
async function paidEvents(natsUrl) {
  const nc = await connect({ servers: natsUrl });
  const ids = new Set();
  const sub = nc.subscribe('invoice.paid');
  (async () => {
    for await (const m of sub) ids.add(JSON.parse(Buffer.from(m.data).toString()).data.id);
  })().catch(() => undefined);
  await nc.flush();
  return { count: () => ids.size, close: () => nc.drain() };
}

/** Once, at the end of a run: its renewal invoices that are paid. */
const paidCount = async (url, run) =>
  Number(
    (
      await query(
        url,
        `SELECT count(*) AS n FROM invoices i JOIN subscriptions s ON s.id = i.subscription_id
          WHERE s.metadata->>'run' = $1 AND i.status = 'paid'`,
        [run],
      )
    )[0].n,
  );

async function measureRun(stack, billingPid, templateIds, count) {
  const url = stack.databases.billing;
  const run = `r${crypto.randomBytes(3).toString('hex')}`;
  say(`seeding ${count} due subscriptions`);
  const events = await paidEvents(stack.natsUrl);
  await seed(url, templateIds, count, run);
  const meter = cpuMeter(stack.processes, { databasePrefix: stack.databasePrefix });
  const started = Date.now();
  let peakRss = 0;
  let seen = 0;
  let report = 10;
  while (seen < count) {
    await sleep(250);
    peakRss = Math.max(peakRss, rssMb(billingPid) ?? 0);
    const s = (Date.now() - started) / 1000;
    seen = events.count();
    if (s >= report) {
      say(`${seen}/${count} paid after ${s.toFixed(0)} s`);
      report += 10;
    }
    if (s > 3600) throw new Error(`only ${seen} of ${count} paid after an hour`);
  }
  const seconds = (Date.now() - started) / 1000;
  const cpu = meter.finish();
  await events.close();
  const paid = await paidCount(url, run);
  if (paid !== count) throw new Error(`${paid} of ${count} renewal invoices are paid`);
  const charges = Number(
    (
      await query(
        stack.databases.payments,
        `SELECT count(*) AS n FROM payments WHERE order_code LIKE 'inv\\_%' AND status = 'captured'`,
      )
    )[0].n,
  );
  // Renewal charges declined on a first connection and paid on the next (--soft-declines).
  const cascaded = Number(
    (
      await query(
        stack.databases.payments,
        `SELECT count(*) AS n FROM payments WHERE order_code LIKE 'inv\\_%' AND jsonb_array_length(attempts) > 1`,
      )
    )[0].n,
  );
  return { count, seconds, perSecond: count / seconds, peakRss, charges, cascaded, cpu };
}

/**
 * CPU microseconds each process (and PostgreSQL, all backends) spent per renewal, and the machine's busy share:
 * unlike renewals/s, this says where the time goes and hardly moves with the host's speed of the hour.
 */
function cpuPerRenewal({ cpu, seconds, count }) {
  const us = (pct) => Math.round(((pct / 100) * seconds * 1e6) / count);
  const parts = Object.entries(cpu.perProcess)
    .filter(([name]) => name !== 'bench')
    .map(([name, pct]) => [name, us(pct)])
    .sort((a, b) => b[1] - a[1])
    .map(([name, value]) => `${name} ${value} µs`);
  const total = Object.entries(cpu.perProcess)
    .filter(([name]) => name !== 'bench')
    .reduce((sum, [, pct]) => sum + us(pct), 0);
  const machine = cpu.machine ? `, machine ${cpu.machine.busyPct}% of ${cpu.machine.cores * 100}% busy` : '';
  return `${parts.join(', ')}; ${total} µs in all${machine}`;
}

async function main() {
  const argv = process.argv.slice(2);
  if (argv.includes('--help')) {
    process.stdout.write(
      'Usage: npm run bench:renewals [-- --counts=10000,100000]\n' +
        '  --counts=LIST  due subscriptions seeded and renewed per run, in order (default 10000,100000)\n' +
        '  --soft-declines=PCT  that share of renewals declined (retry) on a first connection, paid on the next\n' +
        'The other options are those of npm run bench (--pg, --nats, --log-level, --app-node-args).\n',
    );
    return;
  }
  const countsArg = argv.find((a) => a.startsWith('--counts='));
  const counts = (countsArg ? countsArg.slice('--counts='.length) : '10000,100000').split(',').map(Number);
  const softArg = argv.find((a) => a.startsWith('--soft-declines='));
  const softDeclinePct = softArg ? Number(softArg.slice('--soft-declines='.length)) : 0;
  if (!(softDeclinePct >= 0 && softDeclinePct <= 100)) throw new Error('--soft-declines takes a percentage');
  const options = parseOptions(
    argv.filter((a) => a !== countsArg && a !== softArg),
    process.env,
  );
  // The scheduler's own settings can be tried from the bench's environment (e.g. RENEWAL_CONCURRENCY=64).
  options.appEnv = {
    RENEWAL_POLL_MS: '500',
    ...Object.fromEntries(
      ['RENEWAL_BATCH', 'RENEWAL_CONCURRENCY'].filter((k) => process.env[k]).map((k) => [k, process.env[k]]),
    ),
  };
  const logDir = path.join(__dirname, 'results', 'logs');
  fs.mkdirSync(logDir, { recursive: true });
  const children = new Children(logDir);
  const undo = [];
  let cleaning;
  // One cleanup, whichever way the run ends (done, failed, interrupted, stdout closed); each way waits for it.
  cleanup = () =>
    (cleaning ??= (async () => {
      while (undo.length)
        await undo
          .pop()()
          .catch((e) => process.stderr.write(`[renewals] cleanup: ${e.message}\n`));
      await children.stopAll();
    })());
  const stopAndExit = (code, reason) => {
    process.stderr.write(`[renewals] ${reason}: stopping the apps and dropping the databases\n`);
    exiting = true;
    cleanup().finally(() => process.exit(code));
  };
  process.once('SIGINT', () => stopAndExit(130, 'SIGINT'));
  process.once('SIGTERM', () => stopAndExit(143, 'SIGTERM'));
  // `npm run bench:renewals | head` closes stdout early: without this the write's EPIPE would end the bench at
  // once and leave the apps, nats-server and the databases behind.
  process.stdout.on('error', (e) => stopAndExit(1, `stdout: ${e.code || e.message}`));
  const load = machineLoad();
  say(`${load.cores} cores, load average ${load.loadavg1} before the run`);
  try {
    const stack = await startStack({ options, children, onCleanup: (_l, fn) => undo.push(fn), say });
    const billingPid = stack.processes.find((p) => p.name === 'billing').pid;
    const templateIds = await templates(stack, softDeclinePct);
    if (softDeclinePct > 0) {
      await stack.addConnection({
        connectionCode: 'primary',
        connectionName: 'Primary',
        acquirer: 'sandbox',
        environment: 'sandbox',
        currencies: [],
        methods: ['card'],
        priority: 10,
      });
      say(`${softDeclinePct} % of renewals declined (retry) on connection primary, paid on sandbox`);
    }
    const results = [];
    let renewedBefore = 0;
    let cascadedBefore = 0;
    for (const count of counts) {
      const r = await measureRun(stack, billingPid, templateIds, count);
      // Exactly once: every renewal is one captured MIT (order code inv_<invoice>_<attempt>), a cascaded one too.
      const newCharges = r.charges - renewedBefore;
      const newCascaded = r.cascaded - cascadedBefore;
      renewedBefore += count;
      cascadedBefore = r.cascaded;
      results.push(r);
      say(
        `${count} renewals in ${r.seconds.toFixed(1)} s: ${r.perSecond.toFixed(0)} renewals/s, ` +
          `billing peak RSS ${r.peakRss.toFixed(0)} MB (target ≤ ${TARGET_RSS_MB}), ${newCharges} MIT charges` +
          (softDeclinePct ? `, ${newCascaded} declined on primary and paid on sandbox` : ''),
      );
      say(`  CPU per renewal: ${cpuPerRenewal(r)}`);
    }
    if (results.length >= 2) {
      const [a, b] = results;
      const ratio = b.seconds / a.seconds;
      say(
        `ratio ${b.count}/${a.count}: ${ratio.toFixed(2)}× the time for ${(b.count / a.count).toFixed(0)}× the work ` +
          `(target ≤ 11×)`,
      );
    }
    const big = results.find((r) => r.count === 100000);
    if (big) say(`100,000 renewals: ${big.seconds.toFixed(1)} s (target ≤ ${TARGET_100K_S} s)`);
    say(`load average ${machineLoad().loadavg1} after the run (other work shares this machine)`);
  } finally {
    await cleanup();
  }
}

let cleanup = () => Promise.resolve();
/** Set once a signal or a closed stdout stops the run: its own exit follows the cleanup. */
let exiting = false;

main().then(
  () => exiting || process.exit(0),
  (e) => {
    if (exiting) return;
    process.stderr.write(`[renewals] ${e.stack || e}\n`);
    cleanup().finally(() => process.exit(1));
  },
);
