import { Provider, Type } from '@nestjs/common';
import { ExpirySweepLoop } from '@app/platform';
import { ApmService } from './apm/apm.service';
import { SettleUseCase } from './threeds/settle.use-case';
import { PaymentsConfig } from './config';
import { CardNonce } from './nonce/card-nonce.entity';
import { NonceHandler } from './nonce/nonce.handler';
import { NonceRepository } from './nonce/nonce.repository';
import { NonceSweepLoop } from './nonce/nonce-sweep.loop';
import { NonceService } from './nonce/nonce.service';
import { StoredCard } from './vault/stored-card.entity';
import { VaultCipher } from './vault/vault-cipher';
import { vaultKeyring } from './vault/vault-keyring';
import { VaultRepository } from './vault/vault.repository';
import { VaultService } from './vault/vault.service';
import { PaymentSession } from './threeds/payment-session.entity';
import { PaymentSessionRepository } from './threeds/payment-session.repository';
import { ChallengeRecord } from './threeds/challenge-record';
import { ProviderReturnUseCase } from './threeds/provider-return.use-case';
import { ResumeAtAcquirer } from './threeds/resume-at-acquirer';
import { ResumeUseCase } from './threeds/resume.use-case';
import { SessionUse } from './threeds/session-use';
import { ThreeDsExpiryService } from './threeds/threeds-expiry.service';
import { PaymentSessionsHandler } from './threeds/threeds.handler';
import { ThreeDsService } from './threeds/threeds.service';

/** Vault, SDK nonces, 3DS sessions and APMs: what the payments module adds for them. */
export const extrasEntities = [StoredCard, CardNonce, PaymentSession];
export const extrasHandlers: Type<unknown>[] = [NonceHandler, PaymentSessionsHandler];

export function extrasProviders(config: PaymentsConfig): Provider[] {
  // Built now, so a bad or (in production) missing VAULT_KEYS stops the service before it starts.
  const cipher = new VaultCipher(vaultKeyring(config));
  return [
    { provide: VaultCipher, useValue: cipher },
    VaultRepository,
    VaultService,
    NonceRepository,
    NonceService,
    NonceSweepLoop,
    PaymentSessionRepository,
    ThreeDsService,
    ThreeDsExpiryService,
    SessionUse,
    ChallengeRecord,
    ExpirySweepLoop.register({
      name: 'threeds_expiry',
      everyMs: config.THREEDS_EXPIRY_SWEEP_MS,
      work: ThreeDsExpiryService,
      swept: '3DS sessions expired; their payments abandoned',
    }),
    ResumeAtAcquirer,
    ResumeUseCase,
    ProviderReturnUseCase,
    ApmService,
    SettleUseCase,
  ];
}
