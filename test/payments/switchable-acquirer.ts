import {
  AcquirerOutcome,
  AuthorizeRequest,
  CompleteChallengeRequest,
  Connector,
  ModificationOutcome,
  ModificationRequest,
} from '../../apps/payments/src/connector/connector';
import { SandboxAcquirerConnector } from '../../apps/payments/src/connector/sandbox-acquirer.connector';

/** How the acquirer answers capture, refund and cancel: as the sandbox does, or one of the ways it goes wrong. */
export type ModificationBehaviour = 'sandbox' | 'failed' | 'throws' | 'hangs';

export type ModificationCall = { kind: 'capture' | 'refund' | 'cancel' } & ModificationRequest;

/** What the adapter throws in `throws` mode; it must never reach the merchant. */
export const ADAPTER_ERROR = 'connect ECONNREFUSED 203.0.113.7:443';

/**
 * The sandbox acquirer with a switch on its modifications, started in place of the built-in one
 * (`TestStack.start({connectors})`). Authorizations and 3DS go to the real sandbox connector; capture, refund
 * and cancel answer as `modifications` says: `failed` is the acquirer refusing the operation, `throws` an
 * adapter that lost the connection, `hangs` an acquirer that does not answer until `answerHung` is called.
 */
export class SwitchableAcquirer implements Connector {
  readonly acquirer = 'sandbox' as const;
  modifications: ModificationBehaviour = 'sandbox';
  /** Authorizations (purchase and authorization): as the sandbox does, or an adapter that throws or hangs. */
  authorizations: Exclude<ModificationBehaviour, 'failed'> = 'sandbox';
  /** Every capture, refund and cancel the payments service asked for, in order. */
  readonly calls: ModificationCall[] = [];
  /** Every authorization asked for, in order. */
  readonly authorizationCalls: AuthorizeRequest[] = [];
  private readonly sandbox = new SandboxAcquirerConnector();
  private hung: Array<(outcome: ModificationOutcome) => void> = [];
  private hungAuthorizations: Array<() => void> = [];

  authorize(request: AuthorizeRequest): Promise<AcquirerOutcome> {
    this.authorizationCalls.push(request);
    switch (this.authorizations) {
      case 'sandbox':
        return this.sandbox.authorize(request);
      case 'throws':
        return Promise.reject(new Error(ADAPTER_ERROR));
      case 'hangs':
        return new Promise((resolve) => this.hungAuthorizations.push(() => resolve(this.sandbox.authorize(request))));
    }
  }

  lookup(reference: string): Promise<AcquirerOutcome | ModificationOutcome | undefined> {
    return this.sandbox.lookup(reference);
  }

  completeChallenge(request: CompleteChallengeRequest): Promise<AcquirerOutcome> {
    return this.sandbox.completeChallenge(request);
  }

  capture(request: ModificationRequest): Promise<ModificationOutcome> {
    return this.modify({ kind: 'capture', ...request });
  }

  refund(request: ModificationRequest): Promise<ModificationOutcome> {
    return this.modify({ kind: 'refund', ...request });
  }

  cancel(request: ModificationRequest): Promise<ModificationOutcome> {
    return this.modify({ kind: 'cancel', ...request });
  }

  /** The calls that hang so far answer now, late, as an acquirer that was only slow would. */
  answerHung(outcome: ModificationOutcome = { kind: 'succeeded' }): void {
    const waiting = this.hung;
    this.hung = [];
    waiting.forEach((answer) => answer(outcome));
    const authorizations = this.hungAuthorizations;
    this.hungAuthorizations = [];
    authorizations.forEach((answer) => answer());
  }

  private modify(call: ModificationCall): Promise<ModificationOutcome> {
    this.calls.push(call);
    switch (this.modifications) {
      case 'sandbox':
        return this.sandbox[call.kind](call);
      case 'failed':
        return Promise.resolve({ kind: 'failed', message: 'Acquirer refused the operation' });
      case 'throws':
        return Promise.reject(new Error(ADAPTER_ERROR));
      case 'hangs':
        return new Promise((resolve) => this.hung.push(resolve));
    }
  }
}
