import { ENVIRONMENTS, EventEnvelope, isEventType } from '@app/contracts';

/** A message on the EVENTS stream that is not a valid envelope: redelivering it cannot help. */
export class PoisonEventError extends Error {
  constructor(reason: string) {
    super(`Not an event envelope: ${reason}`);
    this.name = 'PoisonEventError';
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Parses and checks `{id, type, createdAt, environment, merchantCode, data}`; the subject must equal `type`. */
export function parseEventEnvelope(data: Uint8Array, subject: string): EventEnvelope {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(data).toString('utf8'));
  } catch {
    throw new PoisonEventError('not JSON');
  }
  const e = value as Partial<EventEnvelope> | null;
  if (!e || typeof e !== 'object') throw new PoisonEventError('not an object');
  if (typeof e.id !== 'string' || !UUID.test(e.id)) throw new PoisonEventError('id must be a uuid');
  if (!isEventType(e.type)) throw new PoisonEventError(`unknown type ${String(e.type)}`);
  if (e.type !== subject) throw new PoisonEventError(`type ${e.type} on subject ${subject}`);
  if (typeof e.createdAt !== 'string' || Number.isNaN(Date.parse(e.createdAt))) {
    throw new PoisonEventError('createdAt must be a timestamp');
  }
  if (!ENVIRONMENTS.includes(e.environment as never)) throw new PoisonEventError('unknown environment');
  if (typeof e.merchantCode !== 'string' || !e.merchantCode) throw new PoisonEventError('merchantCode missing');
  if (!e.data || typeof e.data !== 'object') throw new PoisonEventError('data must be an object');
  return e as EventEnvelope;
}
