import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock, SandboxClockCopy } from '@app/clock';
import { CallerContext } from '@app/contracts';
import { inTransaction } from '@app/database';
import { AcquirerCalls } from '../connector/acquirer-call';
import { ConnectorRegistry } from '../connector/connector.registry';
import { AcquirerAttempt } from './acquirer-attempt';
import { AttemptRecorder, Resolution } from './attempt-recorder';

/**
 * Resolves an acquirer attempt whose request never recorded (its process died between reserve and record):
 * the acquirer is asked what it did for the attempt's request reference. It acted → its answer is recorded
 * exactly as the request would have recorded it (without what only the request had: a card to tokenize, APM
 * details for instructions). It did not → the reservation is released: a reserved payment and the
 * Idempotency-Key go, so the order code and the key can be used again (a cascade's earlier decline is
 * recorded instead, as the request would have answered it); a 3DS session used up by the resume is usable again.
 */
@Injectable()
export class RecoveryService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly connectors: ConnectorRegistry,
    private readonly acquirer: AcquirerCalls,
    private readonly recorder: AttemptRecorder,
    private readonly clocks: SandboxClockCopy,
    private readonly clock: Clock,
  ) {}

  async resolve(a: AcquirerAttempt): Promise<Resolution> {
    const connector = this.connectors.get(a.acquirer);
    const about = { acquirer: a.acquirer, operation: `lookup ${a.operation}`, paymentId: a.paymentId };
    const found = await this.acquirer.call(about, () => connector.lookup(a.requestReference));
    const ctx: CallerContext = {
      requestId: `recovery-${a.id}`,
      merchantCode: a.merchantCode,
      environment: a.environment,
      idempotencyKey: a.idempotencyKey ?? undefined,
    };
    const now = this.clock.now(await this.clocks.clockScopeOf(ctx));
    return inTransaction(this.db, (m) => this.recorder.record(m, ctx, a, found, now));
  }
}
