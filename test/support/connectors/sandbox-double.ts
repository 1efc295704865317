import { randomUUID } from 'node:crypto';
import type { Environment } from '@app/contracts';
import {
  AuthorizationOutcome,
  AuthorizationRequest,
  ConnectorConnection,
  ConnectorOutcomeUnknown,
  ModificationRequest,
  ProviderConnector,
  ProviderNotification,
} from '../../../apps/payments/src/connector/provider-connector';
import {
  SANDBOX_SIGNATURE_HEADER,
  SandboxAcquirerConnector,
  SandboxWebhookBody,
  signSandboxWebhook,
} from '../../../apps/payments/src/connector/sandbox-acquirer.connector';
import { MemoryLedger, SandboxAnswer, SandboxLedger } from '../../../apps/payments/src/connector/sandbox-ledger';
import { ConnectorDouble } from './connector-double';

/** The simulator's ledger, counting the answers it really made (a repeated reference is not a new charge). */
class CountingLedger implements SandboxLedger {
  readonly made = new Map<string, number>();
  private readonly inner = new MemoryLedger();

  async once(reference: string, fresh: SandboxAnswer): Promise<SandboxAnswer> {
    const before = await this.inner.find(reference);
    const answer = await this.inner.once(reference, fresh);
    if (!before) this.made.set(reference, (this.made.get(reference) ?? 0) + 1);
    return answer;
  }

  find(reference: string): Promise<SandboxAnswer | undefined> {
    return this.inner.find(reference);
  }
}

/**
 * The simulator as a ConnectorDouble: there is no provider document behind it, so the checks are the contract's
 * own (integer minor units, a reference on every call, the acquirer reference of an earlier answer on every
 * modification). Its webhooks are signed with the connection's `hmacKey`, as the simulator verifies them.
 */
export class SandboxDouble implements ConnectorDouble {
  readonly acquirer = 'sandbox';

  /** The simulator's notifications are the platform's own: every kind. */
  sends(): boolean {
    return true;
  }
  private readonly ledger = new CountingLedger();
  private readonly inner = new SandboxAcquirerConnector(this.ledger);
  private readonly hmacKey = randomUUID().replace(/-/g, '');
  private readonly problems: string[] = [];
  private readonly known = new Set<string>();
  private dropNext = false;

  start(): Promise<void> {
    return Promise.resolve();
  }

  stop(): Promise<void> {
    return Promise.resolve();
  }

  connection(environment: Environment, connectionCode = 'sandbox'): ConnectorConnection {
    return { connectionCode, merchantCode: 'conformance', environment, credentials: { hmacKey: this.hmacKey } };
  }

  connector(): ProviderConnector {
    const inner = this.inner;
    const checkAmount = (what: string, a: { value: number; exponent: number }) => {
      if (!Number.isInteger(a.value) || a.value < 0 || !Number.isInteger(a.exponent)) {
        this.problems.push(`${what}: amount ${JSON.stringify(a)} is not integer minor units`);
      }
    };
    const checkModification = (what: string, r: ModificationRequest) => {
      checkAmount(what, r.amount);
      if (!r.reference) this.problems.push(`${what}: no reference`);
      if (!this.known.has(r.acquirerReference)) this.problems.push(`${what}: unknown acquirerReference`);
    };
    const remember = (o: AuthorizationOutcome): AuthorizationOutcome => {
      if (o.acquirerReference) this.known.add(o.acquirerReference);
      return o;
    };
    return {
      acquirer: inner.acquirer,
      capabilities: inner.capabilities,
      webhookAcknowledgement: inner.webhookAcknowledgement,
      authorize: async (c: ConnectorConnection, r: AuthorizationRequest) => {
        checkAmount('authorize', r.amount);
        if (!r.reference) this.problems.push('authorize: no reference');
        const outcome = remember(await inner.authorize(c, r));
        if (this.dropNext) {
          this.dropNext = false;
          throw new ConnectorOutcomeUnknown('socket hang up after the charge');
        }
        return outcome;
      },
      completeChallenge: async (c, r) => remember(await inner.completeChallenge(c, r)),
      capture: (c, r) => (checkModification('capture', r), inner.capture(c, r)),
      refund: (c, r) => (checkModification('refund', r), inner.refund(c, r)),
      cancel: (c, r) => (checkModification('cancel', r), inner.cancel(c, r)),
      sync: (c, ref) => inner.sync(c, ref),
      parseWebhook: (c, raw, headers) => inner.parseWebhook(c, raw, headers),
    };
  }

  /** The simulator's challenge outcome travels in its reference; the shopper's answer comes back as is. */
  passChallenge(acquirerReference: string, authenticated: boolean): Promise<Record<string, string>> {
    if (!this.known.has(acquirerReference)) this.problems.push('passChallenge: unknown acquirerReference');
    return Promise.resolve({ authenticated: String(authenticated) });
  }

  dropAnswerAfterNextCharge(): void {
    this.dropNext = true;
  }

  chargesFor(reference: string): number {
    return this.ledger.made.get(reference) ?? 0;
  }

  webhook(
    kind: ProviderNotification['kind'],
    acquirerReference: string,
    options: { success?: boolean; amountValue?: number; modificationReference?: string } = {},
  ): { rawBody: Buffer; headers: Record<string, string> } {
    const body: SandboxWebhookBody = {
      eventId: `sbxevt_${randomUUID()}`,
      kind,
      success: options.success ?? true,
      acquirerReference,
      modificationReference: options.modificationReference,
      amount:
        options.amountValue === undefined ? undefined : { currency: 'USD', value: options.amountValue, exponent: 2 },
      occurredAt: new Date().toISOString(),
    };
    const rawBody = Buffer.from(JSON.stringify(body));
    return {
      rawBody,
      headers: {
        'content-type': 'application/json',
        [SANDBOX_SIGNATURE_HEADER]: signSandboxWebhook(rawBody, this.hmacKey),
      },
    };
  }

  violations(): string[] {
    return [...this.problems];
  }
}
