import { Provider } from '@nestjs/common';

/** The faults a test can inject into an app (see test/support/faults.js). */
export interface Faults {
  /** payments: SIGKILL at this point of a purchase. */
  crashAt?: 'before_acquirer' | 'after_acquirer';
  /** billing: SIGKILL once a renewal charge answered, before its record. */
  killAfterCharge?: boolean;
  /** billing: the first n renewal charges stop before their record, as a process that died there. */
  crashAfterCharge?: number;
}

/** Provider overrides that inject `faults` into `app` in this process (none without faults). */
export const faultOverrides = (require('./faults') as { faultOverrides: (app: string, faults?: Faults) => Provider[] })
  .faultOverrides;
