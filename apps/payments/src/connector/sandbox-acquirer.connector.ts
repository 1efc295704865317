import { Injectable } from '@nestjs/common';
import { randomString, uuidv7 } from '@app/clock';
import {
  AcquirerOutcome,
  assertNever,
  AuthorizeRequest,
  CompleteChallengeRequest,
  Connector,
  ModificationOutcome,
} from './connector';
import { SANDBOX_DECLINES, sandboxBehaviour } from './sandbox-cards';

const ALPHANUMERIC = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789';
const randomCode = (length: number): string => randomString(ALPHANUMERIC, length);
const randomDigits = (length: number): string => randomString('0123456789', length);

// The challenge outcome travels in the acquirer's own reference, so any replica can complete it.
const CHALLENGE_FAILS_PREFIX = 'sbx3ds_f_';
const CHALLENGE_PREFIX = 'sbx3ds_';

/**
 * The built-in simulated acquirer (DECISIONS §2): the test cards of DECISIONS §3 decide the answer, every
 * other valid card is approved. It behaves the same in both environments.
 */
@Injectable()
export class SandboxAcquirerConnector implements Connector {
  readonly acquirer = 'sandbox' as const;

  authorize(request: AuthorizeRequest): Promise<AcquirerOutcome> {
    if (request.paymentMethod !== 'card' || !request.card) {
      return Promise.resolve({ kind: 'pending_action', acquirerReference: `sbxapm_${uuidv7()}` });
    }
    const behaviour = sandboxBehaviour(request.card.cardNumber);
    const reference = `sbx_${uuidv7()}`;
    switch (behaviour.kind) {
      case 'approve':
        return Promise.resolve(approved(reference));
      case 'decline':
        return Promise.resolve({ kind: 'declined', acquirerReference: reference, refusalCode: behaviour.refusal });
      case 'fail':
        return Promise.resolve({ kind: 'failed', acquirerReference: reference, message: 'Processing error' });
      case 'challenge': {
        const prefix = behaviour.challengeFails ? CHALLENGE_FAILS_PREFIX : CHALLENGE_PREFIX;
        return Promise.resolve({ kind: 'challenge_required', acquirerReference: `${prefix}${uuidv7()}` });
      }
      case 'decline_mit':
        return Promise.resolve(
          request.initiator === 'merchant'
            ? { kind: 'declined', acquirerReference: reference, refusalCode: behaviour.refusal }
            : approved(reference),
        );
      default:
        return assertNever(behaviour);
    }
  }

  completeChallenge(request: CompleteChallengeRequest): Promise<AcquirerOutcome> {
    const reference = request.acquirerReference;
    if (!request.authenticated || reference.startsWith(CHALLENGE_FAILS_PREFIX)) {
      return Promise.resolve({
        kind: 'declined',
        acquirerReference: reference,
        refusalCode: SANDBOX_DECLINES.authenticationFailed,
      });
    }
    return Promise.resolve(approved(reference));
  }

  capture(): Promise<ModificationOutcome> {
    return Promise.resolve({ kind: 'succeeded' });
  }

  refund(): Promise<ModificationOutcome> {
    return Promise.resolve({ kind: 'succeeded' });
  }

  cancel(): Promise<ModificationOutcome> {
    return Promise.resolve({ kind: 'succeeded' });
  }
}

function approved(reference: string): AcquirerOutcome {
  return {
    kind: 'approved',
    acquirerReference: reference,
    authorizationCode: randomCode(6),
    networkTransactionId: randomDigits(15),
    networkReferenceId: `SBX${randomCode(12)}`,
  };
}
