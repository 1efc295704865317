import { Environment } from '@app/contracts';

/** Whose time: sandbox merchants can have their own clock; production is always real time. */
export interface ClockScope {
  merchantCode: string;
  environment: Environment;
  /**
   * How far the merchant's sandbox clock runs ahead of real time, in ms (the gateway puts it into every
   * sandbox command's context). Ignored outside the sandbox.
   */
  clockOffsetMs?: number;
}

/** The one source of "now". Domain code never calls `new Date()` or `Date.now()`. */
export abstract class Clock {
  abstract now(scope?: ClockScope): Date;
}

export class SystemClock extends Clock {
  now(): Date {
    return new Date();
  }
}

/** A clock that stands still until moved; for tests of time-driven rules. */
export class ManualClock extends Clock {
  constructor(private current: Date = new Date()) {
    super();
  }

  now(): Date {
    return new Date(this.current.getTime());
  }

  set(to: Date): void {
    this.current = new Date(to.getTime());
  }

  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}

/** The offset a scope's clock runs ahead by: only a sandbox scope has one, and only a sane one counts. */
export function sandboxOffsetOf(scope?: ClockScope): number {
  if (!scope || scope.environment !== 'sandbox') return 0;
  const offset = scope.clockOffsetMs;
  return typeof offset === 'number' && Number.isSafeInteger(offset) && offset > 0 ? offset : 0;
}

/**
 * The clock every app injects: the base clock (real time, or a test's ManualClock) plus the merchant's
 * sandbox offset when the scope carries one. Production time is always the base clock's.
 */
export class SandboxOffsetClock extends Clock {
  constructor(readonly base: Clock) {
    super();
  }

  now(scope?: ClockScope): Date {
    const offset = sandboxOffsetOf(scope);
    const now = this.base.now(scope);
    return offset ? new Date(now.getTime() + offset) : now;
  }
}
