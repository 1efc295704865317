import { randomString, uuidv7 } from '@app/clock';
import {
  AcquirerOutcome,
  assertNever,
  AuthorizeRequest,
  CompleteChallengeRequest,
  Connector,
  ModificationOutcome,
  ModificationRequest,
} from './connector';
import { ThreeDsResult } from './provider-connector';
import { SANDBOX_DECLINES, SANDBOX_THREE_DS, sandboxBehaviour, SandboxFailingOperation } from './sandbox-cards';
import { MemoryLedger, SandboxAnswer, SandboxLedger } from './sandbox-ledger';

const ALPHANUMERIC = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789';
const randomCode = (length: number): string => randomString(ALPHANUMERIC, length);
const randomDigits = (length: number): string => randomString('0123456789', length);

const SUCCEEDED: ModificationOutcome = { kind: 'succeeded' };
const PROCESSING_ERROR: ModificationOutcome = { kind: 'failed', message: 'Processing error' };

// Like the challenge outcome, a test card's failing operation travels in the authorization's reference.
const FAILS_PREFIX: Readonly<Record<SandboxFailingOperation, string>> = {
  capture: 'sbx_fcapture_',
  refund: 'sbx_frefund_',
  cancel: 'sbx_fcancel_',
};

/** A capture, refund or cancel succeeds, unless the test card of the authorization fails that operation. */
const modification = (operation: SandboxFailingOperation, request: ModificationRequest): ModificationOutcome =>
  request.acquirerReference?.startsWith(FAILS_PREFIX[operation]) ? PROCESSING_ERROR : SUCCEEDED;

// The challenge outcome travels in the acquirer's own reference, so any replica can complete it.
const CHALLENGE_FAILS_PREFIX = 'sbx3ds_f_';
const CHALLENGE_PREFIX = 'sbx3ds_';

/**
 * The built-in simulated acquirer: the test cards of sandbox-cards.ts decide the answer, every
 * other valid card is approved. It behaves the same in both environments.
 */
export class SandboxAcquirerConnector implements Connector {
  readonly acquirer = 'sandbox' as const;

  /**
   * `ledger` keeps the answers by request reference (the app's is a table of its own); `latencyMs`
   * (SANDBOX_ACQUIRER_LATENCY_MS) delays every answer, as a real acquirer's network and processing would.
   */
  constructor(
    private readonly ledger: SandboxLedger = new MemoryLedger(),
    private readonly latencyMs = 0,
  ) {}

  authorize(request: AuthorizeRequest): Promise<AcquirerOutcome> {
    return this.answer(() => this.once(request.reference, this.decide(request)));
  }

  /** What the acquirer did for a request reference, or undefined when it never saw it. */
  lookup(reference: string): Promise<AcquirerOutcome | ModificationOutcome | undefined> {
    return this.ledger.find(reference);
  }

  private decide(request: AuthorizeRequest): AcquirerOutcome {
    if (request.paymentMethod !== 'card' || !request.card) {
      return { kind: 'pending_action', acquirerReference: `sbxapm_${uuidv7()}` };
    }
    const behaviour = sandboxBehaviour(request.card.cardNumber);
    const reference = `sbx_${uuidv7()}`;
    if (expiredAt(request.card, request.at)) {
      return { kind: 'declined', acquirerReference: reference, refusalCode: SANDBOX_DECLINES.expiredCard };
    }
    switch (behaviour.kind) {
      case 'approve':
        return approved(reference);
      case 'frictionless':
        // 3DS authenticates a cardholder who is present: a merchant-initiated charge is out of its scope.
        return request.initiator === 'merchant'
          ? approved(reference)
          : approved(reference, { flow: 'frictionless', ...SANDBOX_THREE_DS });
      case 'decline':
        return { kind: 'declined', acquirerReference: reference, refusalCode: behaviour.refusal };
      case 'fail':
        return { kind: 'failed', acquirerReference: reference, message: 'Processing error' };
      case 'challenge': {
        const prefix = behaviour.challengeFails ? CHALLENGE_FAILS_PREFIX : CHALLENGE_PREFIX;
        return { kind: 'challenge_required', acquirerReference: `${prefix}${uuidv7()}` };
      }
      case 'decline_mit':
        return request.initiator === 'merchant'
          ? { kind: 'declined', acquirerReference: reference, refusalCode: behaviour.refusal }
          : approved(reference);
      case 'decline_except_on':
        return request.connectionCode === behaviour.approvedOn
          ? approved(reference)
          : { kind: 'declined', acquirerReference: reference, refusalCode: behaviour.refusal };
      case 'updater':
        return behaviour.answer === 'closed' && request.initiator === 'merchant'
          ? { kind: 'declined', acquirerReference: reference, refusalCode: SANDBOX_DECLINES.closedAccount }
          : approved(reference);
      case 'fail_operation':
        return approved(`${FAILS_PREFIX[behaviour.operation]}${uuidv7()}`);
      default:
        return assertNever(behaviour);
    }
  }

  completeChallenge(request: CompleteChallengeRequest): Promise<AcquirerOutcome> {
    const reference = request.acquirerReference;
    const answer: AcquirerOutcome =
      !request.authenticated || reference.startsWith(CHALLENGE_FAILS_PREFIX)
        ? { kind: 'declined', acquirerReference: reference, refusalCode: SANDBOX_DECLINES.authenticationFailed }
        : approved(reference, { flow: 'challenge', ...SANDBOX_THREE_DS });
    return this.answer(() => this.once(request.reference, answer));
  }

  capture(request: ModificationRequest): Promise<ModificationOutcome> {
    return this.answer(() => this.once(request.reference, modification('capture', request)));
  }

  refund(request: ModificationRequest): Promise<ModificationOutcome> {
    return this.answer(() => this.once(request.reference, modification('refund', request)));
  }

  cancel(request: ModificationRequest): Promise<ModificationOutcome> {
    return this.answer(() => this.once(request.reference, modification('cancel', request)));
  }

  /** Acts at once (as an acquirer does on receipt) and answers after the configured latency. */
  private async answer<T>(act: () => T | Promise<T>): Promise<T> {
    const decided = await act();
    if (this.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, this.latencyMs));
    return decided;
  }

  /**
   * As an acquirer de-duplicates on the merchant's reference: a retry whose first attempt was answered (the
   * answer lost on the way back) gets that answer, and no second authorization or refund is made.
   */
  private async once<T extends SandboxAnswer>(reference: string, fresh: T): Promise<T> {
    return (await this.ledger.once(reference, fresh)) as T;
  }
}

function approved(reference: string, threeDs?: ThreeDsResult): AcquirerOutcome {
  return {
    kind: 'approved',
    acquirerReference: reference,
    authorizationCode: randomCode(6),
    networkTransactionId: randomDigits(15),
    networkReferenceId: `SBX${randomCode(12)}`,
    ...(threeDs ? { threeDs } : {}),
  };
}

/** A card is good through the last day of its expiry month (UTC), as issuers treat it. */
function expiredAt(card: { expiryMonth: string; expiryYear: string }, at: Date): boolean {
  return at.getTime() >= Date.UTC(Number(card.expiryYear), Number(card.expiryMonth), 1);
}
