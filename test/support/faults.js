// Fault injection for the crash tests, as provider overrides. A production start (dist/apps/<app>/src/main.js)
// has no setting that turns any of this on: only a test that starts an app through here, or passes these
// overrides to its starter in process (test/support/stack.ts), injects a fault.
//
// As a child process's entry point: node test/support/faults.js <app> '<faults as JSON>' runs the built app
// (dist/), or its TypeScript sources when started with -r test/support/ts-register.js.
const { join, resolve } = require('node:path');

const ROOT = resolve(__dirname, '../..');
const STARTERS = { payments: 'startPayments', billing: 'startBilling' };
const die = () => process.kill(process.pid, 'SIGKILL');

/**
 * The providers that inject `faults` into `app`, whose modules load from `root` (the sources, or dist/):
 * payments `{crashAt: 'before_acquirer' | 'after_acquirer'}` (SIGKILL at that point of a purchase);
 * billing `{killAfterCharge: true}` (SIGKILL once a renewal charge answered, before its record) or
 * `{crashAfterCharge: n}` (the first n such charges throw as a process that died there would stop).
 */
function faultOverrides(app, faults = {}, root = ROOT) {
  const load = (mod) => require(join(root, 'apps', app, 'src', mod));
  if (app === 'payments' && faults.crashAt) {
    const { CRASH_POINTS, CrashPoints } = load('reservation/crash-points');
    if (!CRASH_POINTS.includes(faults.crashAt)) throw new Error(`no crash point ${faults.crashAt}`);
    return [{ provide: CrashPoints, useValue: { at: (point) => point === faults.crashAt && die() } }];
  }
  if (app === 'billing' && (faults.killAfterCharge || faults.crashAfterCharge)) {
    const { InjectedCrash, RenewalFaults } = load('renewal/renewal-faults');
    let crashes = faults.crashAfterCharge ?? 0;
    const afterCharge = () => {
      if (faults.killAfterCharge) die();
      if (crashes <= 0) return;
      crashes -= 1;
      throw new InjectedCrash();
    };
    return [{ provide: RenewalFaults, useValue: { afterCharge } }];
  }
  if (Object.keys(faults).length) throw new Error(`${app} has no fault ${JSON.stringify(faults)}`);
  return [];
}

module.exports = { faultOverrides };

if (require.main === module) {
  const [app, json = '{}'] = process.argv.slice(2);
  const root = require.extensions['.ts'] ? ROOT : join(ROOT, 'dist');
  const start = require(join(root, 'apps', app, 'src/main'))[STARTERS[app]];
  start({ stopOnSignals: true, overrides: faultOverrides(app, JSON.parse(json), root) }).catch((e) => {
    process.stderr.write(`${app} failed to start: ${e.message}\n`);
    process.exit(1);
  });
}
