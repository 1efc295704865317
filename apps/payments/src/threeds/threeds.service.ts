import { Inject, Injectable } from '@nestjs/common';
import { PAYMENTS_CONFIG, PaymentsConfig } from '../config';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Clock, SandboxClockCopy } from '@app/clock';
import {
  ActionRequiredView,
  CallerContext,
  ChallengeOutcome,
  ChallengeOutcomeResponse,
  SessionView,
} from '@app/contracts';
import { DomainError } from '@app/errors';
import { inTransaction } from '@app/database';
import { VaultCipher } from '../vault/vault-cipher';
import { randomToken } from '../vault/random-token';
import type { VaultedCard } from '../vault/vault.service';
import { PaymentSession, SessionKind } from './payment-session.entity';
import { PaymentSessionRepository } from './payment-session.repository';
import { assertSessionSimulated, assertSimulatorSession } from './simulated-sessions';
import { challengeUrl, isExpired, THREE_DS_SESSION_TTL_MS } from './session-links';
import { moveThreeDs, THREEDS_SESSION_MACHINE } from './session-state';
import { ThreeDsChallengeRequest, ThreeDsPort, ThreeDsTokenizeRequest } from './threeds.port';

type Scope = Pick<CallerContext, 'merchantCode' | 'environment'>;

export const sessionExpired = (): DomainError =>
  new DomainError(
    'SESSION_EXPIRED',
    'The session has expired; retry the original purchase or authorization',
    'sessionId',
  );
export const sessionNotFound = (): DomainError => DomainError.notFound('session', 'sessionId');

/**
 * 3-D Secure sessions: opened for a `pending_3ds` payment (the purchase flow's ThreeDsPort), finished by the
 * cardholder on the hosted page or by the sandbox route, and consumed by the one resume they allow.
 */
@Injectable()
export class ThreeDsService implements ThreeDsPort {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly sessions: PaymentSessionRepository,
    private readonly clock: Clock,
    private readonly clocks: SandboxClockCopy,
    private readonly cipher: VaultCipher,
    @Inject(PAYMENTS_CONFIG) private readonly config: PaymentsConfig,
  ) {}

  async begin(manager: EntityManager, r: ThreeDsChallengeRequest): Promise<ActionRequiredView> {
    const id = r.sessionId ?? randomToken('ses_');
    const expiresAt = new Date(r.now.getTime() + THREE_DS_SESSION_TTL_MS);
    const action: ActionRequiredView = {
      type: 'threeds_challenge',
      url: challengeUrl(this.config.PUBLIC_BASE_URL, id),
      sessionId: id,
      expiresAt: expiresAt.toISOString(),
    };
    const sealed = r.tokenize && this.cipher.sealJson(toVault(r.tokenize), cardContext(r.ctx, id));
    await this.sessions.insert(manager, {
      id,
      kind: 'threeds',
      paymentId: r.paymentId,
      merchantCode: r.ctx.merchantCode,
      environment: r.ctx.environment,
      status: THREEDS_SESSION_MACHINE.spec.initial,
      outcome: null,
      intent: r.intent,
      connectionCode: r.connectionCode,
      acquirerReference: r.acquirerReference,
      cardKeyId: sealed ? sealed.keyId : null,
      cardSealed: sealed ? sealed.blob : null,
      display: {
        amount: { currency: r.amount.currency, value: r.amount.value, exponent: r.amount.exponent },
        maskedCard: r.maskedCard,
      },
      action,
      apm: null,
      providerAction: r.providerAction ?? null,
      expiresAt,
      completedAt: null,
      consumedAt: null,
      createdAt: r.now,
      traceParent: r.traceParent ?? null,
    });
    return action;
  }

  /**
   * The cardholder's answer to the challenge. `scope` is the sandbox route's key (another merchant's session
   * is 404); the hosted page has none. Repeating the recorded outcome is harmless; changing it is 409.
   */
  complete(scope: Scope | null, sessionId: string, requested: ChallengeOutcome): Promise<ChallengeOutcomeResponse> {
    return inTransaction(this.db, async (m) => {
      const s = await this.sessions.lock(m, sessionId);
      if (!s || s.kind !== 'threeds' || (scope && !sameScope(s, scope))) throw sessionNotFound();
      assertSessionSimulated(s);
      // The provider's own challenge decides at the provider: nobody answers it for the shopper here.
      if (s.providerAction) throw DomainError.invalidState('The provider runs this challenge: send the shopper there');
      // The simulated buttons and the sandbox route answer for a simulator connection's payment only.
      assertSimulatorSession(s, await this.sessions.paymentOf(m, s));
      // The sandbox route's context carries the merchant's clock offset; the hosted page's has no merchant.
      const now = this.clock.now(scope ?? (await this.clocks.clockScopeOf(s)));
      if (s.status === 'expired' || isExpired(s, now)) throw sessionExpired();
      if (s.status === 'consumed') throw DomainError.invalidState('The payment was already resumed with this session');
      // The acquirer has the last word: 4000000000003055 is declined on resume whatever is recorded here.
      const outcome = requested;
      if (s.status !== 'pending') {
        if (s.status === outcome) return { sessionId: s.id, outcome };
        throw DomainError.invalidState(`The challenge was already finished: ${s.status}`);
      }
      moveThreeDs(s, outcome === 'authenticated' ? 'authenticate' : 'fail_challenge');
      s.outcome = outcome;
      s.completedAt = now;
      await this.sessions.save(m, s);
      return { sessionId: s.id, outcome };
    });
  }

  /** What the hosted page of a session shows. */
  async view(sessionId: string, kind: SessionKind): Promise<SessionView> {
    const s = await this.sessions.find(sessionId, kind);
    if (!s) throw sessionNotFound();
    assertSessionSimulated(s);
    // A provider's own challenge is shown as the provider's; the simulated page only for a simulator's payment.
    if (!s.providerAction) assertSimulatorSession(s, await this.sessions.paymentOf(this.db.manager, s));
    const now = this.clock.now(await this.clocks.clockScopeOf(s));
    return {
      sessionId: s.id,
      kind: s.kind,
      status: s.status,
      expired: s.kind === 'threeds' && (s.status === 'expired' || (s.status !== 'consumed' && isExpired(s, now))),
      environment: s.environment,
      merchantCode: s.merchantCode,
      amount: s.display.amount,
      expiresAt: s.action.expiresAt,
      maskedCard: s.display.maskedCard,
      actionType: s.action.type,
      apm: s.apm ?? undefined,
      providerAction: s.providerAction ?? undefined,
    };
  }
}

/** The card a challenged payment will vault if approved; never the CVV. */
export type CardToVault = VaultedCard;

function toVault(t: ThreeDsTokenizeRequest): CardToVault {
  const { card } = t;
  return {
    cardNumber: card.cardNumber,
    expiryMonth: card.expiryMonth,
    expiryYear: card.expiryYear,
    cardholderName: card.cardholderName ?? null,
    brand: card.brand,
    type: card.type,
    shopperId: t.shopperId,
  };
}

export const cardContext = (scope: Scope, sessionId: string): string =>
  `payment_session:${scope.environment}:${scope.merchantCode}:${sessionId}`;

export const sameScope = (s: PaymentSession, scope: Scope): boolean =>
  s.merchantCode === scope.merchantCode && s.environment === scope.environment;
