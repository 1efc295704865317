import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { Faults } from './fault-injection';

const ROOT = join(__dirname, '../..');

/**
 * An app run as a real child process from its TypeScript sources (test/support/ts-register.js), for tests that
 * must kill it (SIGKILL) as a crash would. `ready` resolves once it logs that it is listening.
 */
export class ChildApp {
  private readonly exited: Promise<number | null>;
  private output = '';

  private constructor(private readonly child: ChildProcess) {
    this.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(signal ? null : code)));
    child.stdout?.on('data', (d: Buffer) => (this.output += d.toString('utf8')));
    child.stderr?.on('data', (d: Buffer) => (this.output += d.toString('utf8')));
  }

  /** `faults`: injected through the test entry point test/support/faults.js (see `faultOverrides` there). */
  static start(app: 'payments', env: Record<string, string>, faults?: Faults): ChildApp {
    const main = faults
      ? [join(ROOT, 'test/support/faults.js'), app, JSON.stringify(faults)]
      : [join(ROOT, `apps/${app}/src/main.ts`)];
    const child = spawn(process.execPath, ['-r', join(ROOT, 'test/support/ts-register.js'), ...main], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return new ChildApp(child);
  }

  /** Resolves when the log shows `pattern`; rejects if the process exits first or after `ms`. */
  async waitFor(pattern: RegExp, ms = 60_000): Promise<void> {
    const started = Date.now();
    while (!pattern.test(this.output)) {
      if (this.child.exitCode !== null || this.child.signalCode !== null) {
        throw new Error(`child exited before /${pattern.source}/:\n${this.output.slice(-2000)}`);
      }
      if (Date.now() - started > ms) throw new Error(`child did not log /${pattern.source}/ in ${ms} ms`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** The exit: the signal's null for a kill, else the code. */
  exit(): Promise<number | null> {
    return this.exited;
  }

  get killedBySignal(): NodeJS.Signals | null {
    return this.child.signalCode;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGTERM');
    await this.exited;
  }

  get log(): string {
    return this.output;
  }
}
