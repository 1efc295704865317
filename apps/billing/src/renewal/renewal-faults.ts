import { Injectable } from '@nestjs/common';

/**
 * A seam for the crash tests, called once a renewal charge has answered and before its record. It does
 * nothing: no setting turns it on. The crash tests override this provider (test/support/faults.js) with one
 * that kills the process there or throws, as a billing process that died between the charge and the record.
 */
@Injectable()
export class RenewalFaults {
  afterCharge(): void {}
}

/** What an override throws to act as a process that died after the charge: the runner then frees nothing. */
export class InjectedCrash extends Error {
  constructor() {
    super('Injected crash between the charge and its record');
  }
}
