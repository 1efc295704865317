import {
  AuthorizationOutcome,
  AuthorizationRequest,
  ChallengeCompletion,
  ConnectorConnection,
  ConnectorOutcomeUnknown,
  ModificationOutcome,
  ModificationRequest,
  ProviderConnector,
  ProviderNotification,
  SyncedStatus,
} from '../../apps/payments/src/connector/provider-connector';
import {
  SANDBOX_SIGNATURE_HEADER,
  SandboxAcquirerConnector,
  SandboxWebhookBody,
  signSandboxWebhook,
} from '../../apps/payments/src/connector/sandbox-acquirer.connector';
import { SANDBOX_DECLINES } from '../../apps/payments/src/connector/sandbox-cards';

/** The provider's 3DS page of `challenges: 'provider'`. */
export const PROVIDER_ACS_URL = 'https://acs.provider.test/challenge';
const PROVIDER_CHALLENGE_CARD = '4000002500003155';

/** The webhook key this double verifies its webhooks with, whatever the connection's credentials. */
const WEBHOOK_KEY = 'switchable-acquirer-webhook-key';

/** A webhook call as the simulator would POST it, signed with the double's key (or any other key). */
export function switchableWebhook(
  event: Omit<SandboxWebhookBody, 'eventId' | 'occurredAt'> & { eventId?: string },
  key = WEBHOOK_KEY,
): { rawBody: string; headers: Record<string, string> } {
  const body: SandboxWebhookBody = {
    eventId: `evt_${Math.random().toString(36).slice(2)}`,
    occurredAt: new Date().toISOString(),
    ...event,
  };
  // Indented as some providers send it: a re-serialized body would not verify.
  const rawBody = JSON.stringify(body, null, 2);
  return { rawBody, headers: { [SANDBOX_SIGNATURE_HEADER]: signSandboxWebhook(Buffer.from(rawBody), key) } };
}

/** How the acquirer answers capture, refund and cancel: as the sandbox does, or one of the ways it goes wrong. */
export type ModificationBehaviour = 'sandbox' | 'failed' | 'throws' | 'hangs' | 'pending' | 'unknown';

export type ModificationCall = { kind: 'capture' | 'refund' | 'cancel' } & ModificationRequest;

/** What the adapter throws in `throws` mode; it must never reach the merchant. */
export const ADAPTER_ERROR = 'connect ECONNREFUSED 203.0.113.7:443';

/**
 * The sandbox acquirer with a switch on its modifications, started in place of the built-in one
 * (`TestStack.start({connectors})`). Authorizations and 3DS go to the real sandbox connector; capture, refund
 * and cancel answer as `modifications` says: `failed` is the acquirer refusing the operation, `throws` an
 * adapter that lost the connection, `hangs` an acquirer that does not answer until `answerHung` is called,
 * `pending` one that accepts and settles by webhook later, `unknown` one that acts and whose answer is lost.
 * Authorizations in `unknown` mode are taken by the sandbox, then answer ConnectorOutcomeUnknown.
 */
export class SwitchableAcquirer implements ProviderConnector {
  readonly acquirer = 'sandbox' as const;
  modifications: ModificationBehaviour = 'sandbox';
  /** Authorizations (purchase and authorization): as the sandbox does, or an adapter that throws or hangs. */
  authorizations: Extract<ModificationBehaviour, 'sandbox' | 'throws' | 'hangs' | 'unknown'> = 'sandbox';
  /**
   * `provider`: the challenge card (4000002500003155) gets a provider's own 3DS page (a form to post to
   * PROVIDER_ACS_URL); its completion approves when the return carried `redirectResult=AUTHORISED`.
   */
  challenges: 'sandbox' | 'provider' = 'sandbox';
  /** Completions of a provider's challenge, in order. */
  readonly completions: ChallengeCompletion[] = [];
  /** Every capture, refund and cancel the payments service asked for, in order. */
  readonly calls: ModificationCall[] = [];
  /** Every authorization asked for, in order, with the connection it went through. */
  readonly authorizationCalls: Array<AuthorizationRequest & { connectionCode: string }> = [];
  private readonly sandbox = new SandboxAcquirerConnector();
  private hung: Array<(outcome: ModificationOutcome) => void> = [];
  private hungAuthorizations: Array<() => void> = [];

  get capabilities() {
    return this.sandbox.capabilities;
  }

  get webhookAcknowledgement() {
    return this.sandbox.webhookAcknowledgement;
  }

  authorize(connection: ConnectorConnection, request: AuthorizationRequest): Promise<AuthorizationOutcome> {
    this.authorizationCalls.push({ ...request, connectionCode: connection.connectionCode });
    if (this.challenges === 'provider' && request.card?.cardNumber === PROVIDER_CHALLENGE_CARD) {
      return Promise.resolve({
        kind: 'challenge_required',
        acquirerReference: `prov3ds_${request.reference}`,
        action: {
          type: 'redirect',
          url: PROVIDER_ACS_URL,
          method: 'POST',
          data: { creq: `creq-${request.reference}` },
        },
      });
    }
    switch (this.authorizations) {
      case 'sandbox':
        return this.sandbox.authorize(connection, request);
      case 'throws':
        return Promise.reject(new Error(ADAPTER_ERROR));
      case 'unknown':
        return this.sandbox.authorize(connection, request).then(() => {
          throw new ConnectorOutcomeUnknown('socket hang up');
        });
      case 'hangs':
        return new Promise((resolve) =>
          this.hungAuthorizations.push(() => resolve(this.sandbox.authorize(connection, request))),
        );
    }
  }

  sync(
    connection: ConnectorConnection,
    ref: { acquirerReference?: string; reference: string },
  ): Promise<SyncedStatus | undefined> {
    return this.sandbox.sync(connection, ref);
  }

  parseWebhook(
    connection: ConnectorConnection,
    rawBody: Buffer,
    headers: Readonly<Record<string, string | undefined>>,
  ): ProviderNotification[] {
    return this.sandbox.parseWebhook({ ...connection, credentials: { hmacKey: WEBHOOK_KEY } }, rawBody, headers);
  }

  completeChallenge(connection: ConnectorConnection, request: ChallengeCompletion): Promise<AuthorizationOutcome> {
    if (!request.acquirerReference.startsWith('prov3ds_')) return this.sandbox.completeChallenge(connection, request);
    this.completions.push(request);
    const ref = request.acquirerReference;
    return Promise.resolve(
      request.details?.redirectResult === 'AUTHORISED'
        ? {
            kind: 'approved',
            acquirerReference: ref,
            authorizationCode: 'PRV123',
            networkTransactionId: '123456789012345',
            networkReferenceId: 'PRVREF',
            threeDs: { flow: 'challenge', eci: '05', version: '2.2.0' },
          }
        : { kind: 'declined', acquirerReference: ref, refusalCode: SANDBOX_DECLINES.authenticationFailed },
    );
  }

  capture(connection: ConnectorConnection, request: ModificationRequest): Promise<ModificationOutcome> {
    return this.modify(connection, { kind: 'capture', ...request });
  }

  refund(connection: ConnectorConnection, request: ModificationRequest): Promise<ModificationOutcome> {
    return this.modify(connection, { kind: 'refund', ...request });
  }

  cancel(connection: ConnectorConnection, request: ModificationRequest): Promise<ModificationOutcome> {
    return this.modify(connection, { kind: 'cancel', ...request });
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

  private modify(connection: ConnectorConnection, call: ModificationCall): Promise<ModificationOutcome> {
    this.calls.push(call);
    const { kind, ...request } = call;
    switch (this.modifications) {
      case 'sandbox':
        return this.sandbox[kind](connection, request);
      case 'failed':
        return Promise.resolve({ kind: 'failed', message: 'Acquirer refused the operation' });
      case 'throws':
        return Promise.reject(new Error(ADAPTER_ERROR));
      case 'pending':
        return Promise.resolve({ kind: 'pending', providerReference: `sbxmod_${request.reference}` });
      case 'unknown':
        return this.sandbox[kind](connection, request).then(() => {
          throw new ConnectorOutcomeUnknown('socket hang up');
        });
      case 'hangs':
        return new Promise((resolve) => this.hung.push(resolve));
    }
  }
}
