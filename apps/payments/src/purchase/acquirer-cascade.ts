import { Injectable } from '@nestjs/common';
import { CallerContext, PaymentMethod, PurchaseRequest } from '@app/contracts';
import { AcquirerOutcome } from '../connector/connector';
import { AcquirerCalls } from '../connector/acquirer-call';
import { ConnectorRegistry } from '../connector/connector.registry';
import { ConnectionEntity } from '../routing/connection.entity';
import { PurchaseReservation, Reserved } from './purchase-reservation';

/**
 * The call step of a purchase or authorization: the connections tried in order, with no transaction open;
 * only a decline whose recovery action is `retry` moves on to the next one (cascade).
 */
@Injectable()
export class AcquirerCascade {
  constructor(
    private readonly connectors: ConnectorRegistry,
    private readonly acquirer: AcquirerCalls,
    private readonly reservations: PurchaseReservation,
  ) {}

  async authorize(
    ctx: CallerContext,
    r: Reserved,
    connections: ConnectionEntity[],
    body: PurchaseRequest,
  ): Promise<AcquirerOutcome> {
    const { payment, card } = r;
    let outcome: AcquirerOutcome | undefined;
    for (const [i, connection] of connections.entries()) {
      if (i > 0) await this.reservations.moveAttempt(ctx, r, connection, outcome!);
      payment.connectionCode = connection.connectionCode;
      payment.connectionName = connection.connectionName;
      payment.acquirer = connection.acquirer;
      const connector = this.connectors.get(connection.acquirer);
      const about = {
        acquirer: connection.acquirer,
        operation: payment.intent,
        paymentId: payment.id,
        connectionId: connection.id,
      };
      outcome = await this.acquirer.call(about, () =>
        connector.authorize({
          paymentId: payment.id,
          reference: r.attempt.requestReference,
          amount: { currency: payment.currency, value: payment.amountValue, exponent: payment.exponent },
          capture: payment.intent === 'purchase',
          paymentMethod: payment.paymentMethod as PaymentMethod,
          card,
          initiator: body.card?.cardOnFile?.initiator ?? 'cardholder',
          networkTransactionId: body.card?.networkTransactionId ?? card?.networkTransactionId ?? undefined,
          connectionCode: connection.connectionCode,
        }),
      );
      payment.attempts.push({
        connectionCode: connection.connectionCode,
        outcome: outcome.kind,
        ...(outcome.kind === 'declined' ? { reasonCode: outcome.refusalCode.reasonCode } : {}),
      });
      if (outcome.kind !== 'declined' || outcome.refusalCode.recoveryAction !== 'retry') break;
    }
    return outcome!;
  }
}
