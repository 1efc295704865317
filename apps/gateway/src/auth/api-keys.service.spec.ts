import pino from 'pino';
import type { NatsClient } from '@app/messaging';
import type { ApiKeysRepository } from './api-keys.repository';
import { ApiKeysService, hashKey } from './api-keys.service';
import type { MerchantsService } from './merchants.service';

const VALID = `prv_sandbox_${'A'.repeat(32)}`;
const fake = (i: number) => `prv_sandbox_${'B'.repeat(24)}${i}`;

/** ApiKeysService over a stand-in key store that knows one key and counts its lookups. */
function service() {
  const queries: string[] = [];
  const db = {
    byHash: async (hash: string) => {
      queries.push(hash);
      return hash === hashKey(VALID)
        ? { id: 'k1', type: 'private', environment: 'sandbox', codes: ['m1'], ids: ['1'] }
        : undefined;
    },
  } as unknown as ApiKeysRepository;
  const keys = new ApiKeysService(db, {} as MerchantsService, {} as NatsClient, 5_000, pino({ level: 'silent' }));
  return { keys, queries };
}

describe('ApiKeysService: unknown keys cost one lookup and never push a valid key out', () => {
  afterEach(() => jest.restoreAllMocks());

  it('a flood of distinct unknown keys leaves the valid key cached', async () => {
    jest.spyOn(Date, 'now').mockReturnValue(1_000_000); // all within the cache TTL
    const { keys, queries } = service();
    await expect(keys.authenticate(VALID)).resolves.toMatchObject({ keyId: 'k1' });
    // More unknown keys than the valid-key cache holds (50,000).
    let refused = 0;
    for (let i = 0; i < 60_000; i++) await keys.authenticate(fake(i)).catch(() => refused++);
    expect(refused).toBe(60_000);
    const before = queries.length;
    await expect(keys.authenticate(VALID)).resolves.toMatchObject({ keyId: 'k1' });
    expect(queries.length).toBe(before); // still cached: no lookup
  });

  it('an unknown key asked again within the TTL is refused from the cache', async () => {
    const { keys, queries } = service();
    await expect(keys.authenticate(fake(1))).rejects.toThrow();
    await expect(keys.authenticate(fake(1))).rejects.toThrow();
    expect(queries).toHaveLength(1);
  });
});
