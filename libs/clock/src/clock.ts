import { Environment } from '@app/contracts';

/** Whose time: sandbox merchants can have their own clock (DECISIONS §7); production is always real time. */
export interface ClockScope {
  merchantCode: string;
  environment: Environment;
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
