import type { Environment } from '@app/contracts';
import { DomainError } from '@app/errors';
import { UNKNOWN_KEY_MESSAGE } from '../http/api-errors';
import type { KeyType } from './api-key.entity';
import type { Role } from './permission';

/** The authenticated caller of a merchant route. */
export interface Principal {
  keyId: string;
  type: KeyType;
  environment: Environment;
  merchantCodes: string[];
  /** Merchant code → the merchant's integer id (the gateway's sequence), carried in the command context. */
  merchantIds?: Readonly<Record<string, number>>;
  /** Set when the caller is a dashboard user's session (dashboard/session-principal.ts), not a key. */
  dashboard?: { userId: string; email: string; sessionId: string; role: Role };
}

export const KEY_PATTERN = /^(prv|pub)_(production|sandbox)_([A-Za-z0-9]{24,64})$/;

export { UNKNOWN_KEY_MESSAGE };
export const unknownKey = (): DomainError => new DomainError('AUTH_INVALID', UNKNOWN_KEY_MESSAGE);
