import { createHmac, timingSafeEqual } from 'node:crypto';
import { randomString, uuidv7 } from '@app/clock';
import { assertNever } from './assert-never';
import {
  AuthorizationOutcome,
  AuthorizationRequest,
  ChallengeCompletion,
  ConnectorCapabilities,
  ConnectorConnection,
  ModificationOutcome,
  ModificationRequest,
  ProviderConnector,
  ProviderNotification,
  SyncedStatus,
  ThreeDsResult,
  WebhookAcknowledgement,
  WebhookRejected,
} from './provider-connector';
import { SANDBOX_DECLINES, SANDBOX_THREE_DS, sandboxBehaviour, SandboxFailingOperation } from './sandbox-cards';
import { MemoryLedger, SandboxAnswer, SandboxLedger } from './sandbox-ledger';

const ALPHANUMERIC = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789';
const randomCode = (length: number): string => randomString(ALPHANUMERIC, length);
const randomDigits = (length: number): string => randomString('0123456789', length);

const PROCESSING_ERROR = 'Processing error';

// Like the challenge outcome, a test card's failing operation travels in the authorization's reference.
const FAILS_PREFIX: Readonly<Record<SandboxFailingOperation, string>> = {
  capture: 'sbx_fcapture_',
  refund: 'sbx_frefund_',
  cancel: 'sbx_fcancel_',
};

/** A capture, refund or cancel succeeds, unless the test card of the authorization fails that operation. */
const modification = (operation: SandboxFailingOperation, request: ModificationRequest): ModificationOutcome =>
  request.acquirerReference.startsWith(FAILS_PREFIX[operation])
    ? { kind: 'failed', providerReference: `sbxmod_${uuidv7()}`, message: PROCESSING_ERROR }
    : { kind: 'succeeded', providerReference: `sbxmod_${uuidv7()}` };

// The challenge outcome travels in the acquirer's own reference, so any replica can complete it.
const CHALLENGE_FAILS_PREFIX = 'sbx3ds_f_';
const CHALLENGE_PREFIX = 'sbx3ds_';

/** The header of the simulator's inbound webhooks: hex HMAC-SHA256 of the raw body under the connection's hmacKey. */
export const SANDBOX_SIGNATURE_HEADER = 'x-sandbox-signature';

/** The simulator's webhook body: one event, our own terms. */
export interface SandboxWebhookBody {
  eventId: string;
  kind: ProviderNotification['kind'];
  success: boolean;
  acquirerReference: string;
  modificationReference?: string;
  merchantReference?: string;
  amount?: { currency: string; value: number; exponent: number };
  reason?: string;
  occurredAt: string;
}

/** Signs a simulator webhook body as the simulator does (the conformance double and tests use it). */
export function signSandboxWebhook(rawBody: Buffer, hmacKey: string): string {
  return createHmac('sha256', hmacKey).update(rawBody).digest('hex');
}

/**
 * The built-in simulated acquirer: the test cards of sandbox-cards.ts decide the answer, every
 * other valid card is approved. It behaves the same in both environments. Captures, refunds and cancels are
 * answered at once (never `pending`); `sync` answers from its ledger by request reference; its inbound
 * webhooks are signed with the connection's `hmacKey` (a connection without one accepts none).
 */
export class SandboxAcquirerConnector implements ProviderConnector {
  readonly acquirer = 'sandbox' as const;
  readonly capabilities: ConnectorCapabilities = { multipleCaptures: false, statusSync: true };
  readonly webhookAcknowledgement: WebhookAcknowledgement = {
    status: 200,
    contentType: 'application/json',
    body: '{"received":true}',
  };

  /**
   * `ledger` keeps the answers by request reference (the app's is a table of its own); `latencyMs`
   * (SANDBOX_ACQUIRER_LATENCY_MS) delays every answer, as a real acquirer's network and processing would.
   */
  constructor(
    private readonly ledger: SandboxLedger = new MemoryLedger(),
    private readonly latencyMs = 0,
  ) {}

  authorize(connection: ConnectorConnection, request: AuthorizationRequest): Promise<AuthorizationOutcome> {
    return this.answer(() => this.once(request.reference, this.decide(connection, request)));
  }

  /**
   * What the simulator did for a request reference (an authorization, a 3DS completion, a capture, refund or
   * cancel), or undefined when it never saw it. A modification that succeeded answers the payment's status
   * after it (`captured`, `refunded`, `cancelled`); one refused answers `failed`.
   */
  async sync(
    _connection: ConnectorConnection,
    ref: { acquirerReference?: string; reference: string },
  ): Promise<SyncedStatus | undefined> {
    const found = await this.ledger.find(ref.reference);
    if (!found) return undefined;
    if ('operation' in found) {
      if (found.outcome.kind === 'failed') {
        return { kind: 'failed', acquirerReference: ref.acquirerReference ?? null, message: found.outcome.message };
      }
      return { kind: AFTER[found.operation] };
    }
    return found;
  }

  completeChallenge(connection: ConnectorConnection, request: ChallengeCompletion): Promise<AuthorizationOutcome> {
    const reference = request.acquirerReference;
    // The conformance double's shopper answers on the return URL; our hosted page says it in `authenticated`.
    const authenticated =
      request.details?.authenticated !== undefined ? request.details.authenticated === 'true' : request.authenticated;
    const answer: AuthorizationOutcome =
      !authenticated || reference.startsWith(CHALLENGE_FAILS_PREFIX)
        ? { kind: 'declined', acquirerReference: reference, refusalCode: SANDBOX_DECLINES.authenticationFailed }
        : approved(reference, { flow: 'challenge', ...SANDBOX_THREE_DS });
    return this.answer(() => this.once(request.reference, answer));
  }

  capture(_connection: ConnectorConnection, request: ModificationRequest): Promise<ModificationOutcome> {
    return this.modify('capture', request);
  }

  refund(_connection: ConnectorConnection, request: ModificationRequest): Promise<ModificationOutcome> {
    return this.modify('refund', request);
  }

  cancel(_connection: ConnectorConnection, request: ModificationRequest): Promise<ModificationOutcome> {
    return this.modify('cancel', request);
  }

  parseWebhook(
    connection: ConnectorConnection,
    rawBody: Buffer,
    headers: Readonly<Record<string, string | undefined>>,
  ): ProviderNotification[] {
    const key = connection.credentials.hmacKey;
    if (!key) throw new WebhookRejected('The connection has no webhook key: it accepts no webhook');
    const given = Buffer.from(headers[SANDBOX_SIGNATURE_HEADER] ?? '', 'hex');
    const expected = Buffer.from(signSandboxWebhook(rawBody, key), 'hex');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new WebhookRejected('The webhook signature does not verify');
    }
    let body: SandboxWebhookBody;
    try {
      body = JSON.parse(rawBody.toString('utf8')) as SandboxWebhookBody;
    } catch {
      throw new WebhookRejected('The webhook body is not JSON');
    }
    if (typeof body.eventId !== 'string' || typeof body.acquirerReference !== 'string') {
      throw new WebhookRejected('The webhook body has no eventId or acquirerReference');
    }
    return [
      {
        eventId: body.eventId,
        kind: body.kind,
        success: body.success !== false,
        acquirerReference: body.acquirerReference,
        modificationReference: body.modificationReference,
        merchantReference: body.merchantReference,
        amount: body.amount,
        reason: body.reason,
        occurredAt: new Date(body.occurredAt),
        providerEvent: `sandbox.${body.kind}`,
      },
    ];
  }

  private decide(connection: ConnectorConnection, request: AuthorizationRequest): AuthorizationOutcome {
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
        return { kind: 'failed', acquirerReference: reference, message: PROCESSING_ERROR };
      case 'challenge': {
        const prefix = behaviour.challengeFails ? CHALLENGE_FAILS_PREFIX : CHALLENGE_PREFIX;
        return { kind: 'challenge_required', acquirerReference: `${prefix}${uuidv7()}` };
      }
      case 'decline_mit':
        return request.initiator === 'merchant'
          ? { kind: 'declined', acquirerReference: reference, refusalCode: behaviour.refusal }
          : approved(reference);
      case 'decline_except_on':
        return connection.connectionCode === behaviour.approvedOn
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

  private async modify(operation: SandboxFailingOperation, request: ModificationRequest): Promise<ModificationOutcome> {
    return this.answer(async () => {
      const stored = await this.ledger.once(request.reference, {
        operation,
        outcome: modification(operation, request),
      });
      return (stored as { outcome: ModificationOutcome }).outcome;
    });
  }

  /** Acts at once (as an acquirer does on receipt) and answers after the configured latency. */
  private async answer<T>(act: () => T | Promise<T>): Promise<T> {
    const decided = await act();
    if (this.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, this.latencyMs));
    return decided;
  }

  /**
   * As an acquirer de-duplicates on the merchant's reference: a retry whose first attempt was answered (the
   * answer lost on the way back) gets that answer, and no second authorization is made.
   */
  private async once(reference: string, fresh: AuthorizationOutcome): Promise<AuthorizationOutcome> {
    return (await this.ledger.once(reference, fresh as SandboxAnswer)) as AuthorizationOutcome;
  }
}

const AFTER: Readonly<Record<SandboxFailingOperation, 'captured' | 'refunded' | 'cancelled'>> = {
  capture: 'captured',
  refund: 'refunded',
  cancel: 'cancelled',
};

function approved(reference: string, threeDs?: ThreeDsResult): AuthorizationOutcome {
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
