import fc from 'fast-check';
import { UsageBatchEvent } from '@app/contracts';
import { DomainError, validatedBody } from '@app/errors';
import { readUsageBatchEvent } from './usage-event-input';

const texts = (max: number) =>
  fc.oneof(
    fc.string({ minLength: 1, maxLength: max }),
    fc.constantFrom('', 'x'.repeat(max + 1), 42, null, true, [], {}),
  );
const fieldArb = {
  subscriptionId: texts(255),
  meterCode: texts(255),
  quantity: fc.oneof(
    fc.nat(),
    fc.constantFrom(-1, 1.5, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 1, '3', null, NaN, Infinity),
  ),
  occurredAt: texts(64),
  idempotencyKey: fc.oneof(fc.string({ minLength: 1, maxLength: 255 }), fc.constantFrom('', 'k'.repeat(256), 'é', 7)),
  extra: fc.string(),
};
const eventArb = fc.record(fieldArb, { requiredKeys: [] });

describe('readUsageBatchEvent', () => {
  it('accepts and refuses exactly what the UsageBatchEvent DTO does, naming the same field', async () => {
    await fc.assert(
      fc.asyncProperty(eventArb, async (event) => {
        const fast = readUsageBatchEvent(event);
        const slow = await validatedBody(UsageBatchEvent, event).catch((e: DomainError) => e);
        if (slow instanceof DomainError) {
          expect(fast).toBeInstanceOf(DomainError);
          expect((fast as DomainError).param).toBe(slow.param);
        } else {
          // The DTO keeps an explicit null of an optional field; the reader drops it (both mean absent).
          const present = Object.entries(slow).filter(([, value]) => value !== null && value !== undefined);
          expect(fast).toEqual(Object.fromEntries(present));
        }
      }),
      { numRuns: 500 },
    );
  });

  it('refuses what is not an object', () => {
    for (const value of [null, 3, 'event', [], undefined]) {
      expect(readUsageBatchEvent(value)).toBeInstanceOf(DomainError);
    }
  });
});
