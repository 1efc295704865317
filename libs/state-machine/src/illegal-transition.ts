import { DomainError } from '@app/errors';

/**
 * A move the transition table does not allow. It is the API's 409 INVALID_STATE (a DomainError with that
 * code), so every edge answers it the same way; the machine, state and event say which move was refused.
 */
export class IllegalTransition extends DomainError {
  constructor(
    readonly machine: string,
    readonly from: string,
    readonly event: string,
    message: string,
  ) {
    super('INVALID_STATE', message);
    this.name = 'IllegalTransition';
  }
}
