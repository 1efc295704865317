import { Inject, Injectable } from '@nestjs/common';
import { PAYMENTS_CONFIG, PaymentsConfig } from '../config';
import { providerReturnUrl } from '../threeds/session-links';
import { CallerContext, PaymentMethod, PurchaseRequest } from '@app/contracts';
import { AuthorizationOutcome } from '../connector/provider-connector';
import { AcquirerCalls } from '../connector/acquirer-call';
import { ConnectorConnections } from '../routing/connector-connections';
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
    private readonly connections: ConnectorConnections,
    @Inject(PAYMENTS_CONFIG) private readonly config: PaymentsConfig,
  ) {}

  async authorize(
    ctx: CallerContext,
    r: Reserved,
    connections: ConnectionEntity[],
    body: PurchaseRequest,
  ): Promise<AuthorizationOutcome> {
    const { payment, card } = r;
    let outcome: AuthorizationOutcome | undefined;
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
      // The connection's credentials are decrypted inside the call: a failure there is the call's (503).
      outcome = await this.acquirer.call(about, async () =>
        connector.authorize(await this.connections.of(connection), {
          paymentId: payment.id,
          reference: r.attempt.requestReference,
          amount: { currency: payment.currency, value: payment.amountValue, exponent: payment.exponent },
          capture: payment.intent === 'purchase',
          paymentMethod: payment.paymentMethod as PaymentMethod,
          card,
          initiator: body.card?.cardOnFile?.initiator ?? 'cardholder',
          networkTransactionId: body.card?.networkTransactionId ?? card?.networkTransactionId ?? undefined,
          at: payment.createdAt,
          returnUrl: returnUrlOf(this.config, r),
          shopperReference: body.shopper?.id,
          shopperEmail: body.shopper?.email,
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

/** The gateway's page the provider sends the shopper back to after its 3DS, naming the payment's session. */
function returnUrlOf(config: PaymentsConfig, r: Reserved): string | undefined {
  const detail = r.attempt.detail;
  return detail.kind === 'authorize' && detail.sessionId
    ? providerReturnUrl(config.PUBLIC_BASE_URL, detail.sessionId)
    : undefined;
}
