import { EntityManager } from 'typeorm';
import { DomainError } from '@app/errors';
import { Scope } from '../scope';
import { SubscriptionEntity } from './subscription.entity';
import { SubscriptionRepository } from './subscription.repository';

/**
 * An operation that called payments first (no transaction held across the call) re-reads the row locked and
 * goes on only if nobody changed the subscription meanwhile; otherwise 409, and the caller gives the charge back.
 */
export async function lockUnchanged(
  manager: EntityManager,
  subscriptions: SubscriptionRepository,
  scope: Scope,
  seen: SubscriptionEntity,
): Promise<SubscriptionEntity> {
  const locked = await subscriptions.findForUpdate(manager, scope, seen.id);
  if (!locked || locked.updatedAt.getTime() !== seen.updatedAt.getTime()) {
    throw DomainError.invalidState('The subscription changed meanwhile; try again');
  }
  return locked;
}
