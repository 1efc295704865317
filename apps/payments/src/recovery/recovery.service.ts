import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock, SandboxClockCopy } from '@app/clock';
import { CallerContext } from '@app/contracts';
import { inTransaction } from '@app/database';
import { AcquirerCalls } from '../connector/acquirer-call';
import { ConnectorConnections } from '../routing/connector-connections';
import { ConnectorRegistry } from '../connector/connector.registry';
import { PaymentRepository } from '../payment/payment.repository';
import { AcquirerAttempt } from '../reservation/acquirer-attempt';
import { answerOf, acquirerReferenceOf } from '../reservation/synced-answer';
import { AttemptRecorder, Resolution } from './attempt-recorder';

/**
 * Resolves an acquirer attempt whose request never recorded (its process died between reserve and record):
 * the acquirer is asked what it did for the attempt's request reference. It acted → its answer is recorded
 * exactly as the request would have recorded it (without what only the request had: a card to tokenize, APM
 * details for instructions). It did not → the reservation is released: a reserved payment and the
 * Idempotency-Key go, so the order code and the key can be used again (a cascade's earlier decline is
 * recorded instead, as the request would have answered it); a 3DS session used up by the resume is usable again.
 * The provider is asked through `sync` by the attempt's request reference; an attempt whose answer was lost after
 * sending (ConnectorOutcomeUnknown) is resolved the same way, or by the provider's webhook (ProviderWebhooks).
 */
@Injectable()
export class RecoveryService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly connectors: ConnectorRegistry,
    private readonly acquirer: AcquirerCalls,
    private readonly connections: ConnectorConnections,
    private readonly recorder: AttemptRecorder,
    private readonly clocks: SandboxClockCopy,
    private readonly clock: Clock,
    private readonly payments: PaymentRepository,
  ) {}

  async resolve(a: AcquirerAttempt): Promise<Resolution> {
    const connector = this.connectors.get(a.acquirer);
    const about = { acquirer: a.acquirer, operation: `sync ${a.operation}`, paymentId: a.paymentId };
    const synced = await this.acquirer.call(about, async () =>
      connector.sync(await this.connections.byCode(a), {
        acquirerReference: acquirerReferenceOf(a) ?? (await this.paymentReference(a)),
        reference: a.requestReference,
      }),
    );
    const found = answerOf(a, synced);
    // Released only on the provider's word that it never acted. A provider that cannot be asked (no status
    // sync), or whose status does not settle this attempt yet, settles it by its webhook: the attempt waits.
    // A modification the provider accepted for later is never released: its webhook settles it.
    const undecided = !connector.capabilities.statusSync || synced !== undefined || !!a.acceptedReference;
    if (found === undefined && undecided) return 'waiting';
    const ctx: CallerContext = {
      requestId: `recovery-${a.id}`,
      merchantCode: a.merchantCode,
      environment: a.environment,
      idempotencyKey: a.idempotencyKey ?? undefined,
    };
    const now = this.clock.now(await this.clocks.clockScopeOf(ctx));
    return inTransaction(this.db, (m) => this.recorder.record(m, ctx, a, found, now));
  }

  /** A capture's, refund's or cancel's payment reference at the provider (an authorization has none yet). */
  private async paymentReference(a: AcquirerAttempt): Promise<string | undefined> {
    if (a.detail.kind === 'authorize') return undefined;
    return this.payments.acquirerReference(a.paymentId);
  }
}
