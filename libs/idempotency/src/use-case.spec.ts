import 'reflect-metadata';
import type { EntityManager } from 'typeorm';
import type { CallerContext } from '@app/contracts';
import type { IdempotencyService, LeasedRun } from './idempotency.service';
import { LeasedUseCase, TransactionUseCase, UseCase, useCaseDeclaration } from './use-case';

const ctx = { merchantCode: 'm', environment: 'sandbox', requestId: 'r' } as CallerContext;
const manager = { name: 'the transaction' } as unknown as EntityManager;
const lease: LeasedRun = { resourceId: 'res', callKey: (p) => `k_${p}`, answer: () => Promise.resolve() };

/** What the use case asked of the idempotency service, and what the service answers (its own semantics have e2e tests). */
function recordingService(earlier?: unknown) {
  const calls: unknown[][] = [];
  const service = {
    transaction: (...args: unknown[]) => {
      calls.push(['transaction', ...args.slice(0, 4)]);
      return (args[4] as (m: EntityManager) => Promise<unknown>)(manager);
    },
    leased: (...args: unknown[]) => {
      calls.push(['leased', ...args.slice(0, 3)]);
      return (args[3] as (l: LeasedRun) => Promise<unknown>)(lease);
    },
    earlierAnswer: (...args: unknown[]) => {
      calls.push(['earlierAnswer', ...args.slice(0, 3)]);
      return Promise.resolve(earlier);
    },
  };
  return { calls, service: service as unknown as IdempotencyService };
}

const withService = <T extends object>(useCase: T, service: IdempotencyService): T =>
  Object.assign(useCase, { idempotency: service });

@UseCase({ operation: 'thing.archive', idempotency: 'transaction', request: ({ id }: { id: string }) => ({ id }) })
class ArchiveThing extends TransactionUseCase<{ id: string; merchantCode: string }, string> {
  protected execute(_ctx: CallerContext, command: { id: string }, m: EntityManager): Promise<string> {
    return Promise.resolve(`${command.id} in ${(m as unknown as { name: string }).name}`);
  }
}

@UseCase({ operation: 'thing.create', idempotency: 'transaction', status: 201, replayBeforePrepare: true })
class CreateThing extends TransactionUseCase<{ name: string }, string, number> {
  prepared = 0;
  protected override prepare(): Promise<number> {
    this.prepared += 1;
    return Promise.resolve(42);
  }
  protected execute(_ctx: CallerContext, command: { name: string }, _m: EntityManager, p: number): Promise<string> {
    return Promise.resolve(`${command.name} ${p}`);
  }
}

@UseCase({ operation: 'thing.charge', idempotency: 'leased' })
class ChargeThing extends LeasedUseCase<{ value: number }, string> {
  protected execute(_ctx: CallerContext, command: { value: number }, l: LeasedRun): Promise<string> {
    return Promise.resolve(`${command.value} as ${l.resourceId} with ${l.callKey('mit')}`);
  }
}

describe('@UseCase', () => {
  it('applies a transaction declaration: its operation, the declared request fingerprinted, status 200', async () => {
    const { calls, service } = recordingService();
    const answer = await withService(new ArchiveThing(), service).run(ctx, { id: 'a1', merchantCode: 'm' });
    expect(answer).toBe('a1 in the transaction');
    expect(calls).toEqual([['transaction', ctx, 'thing.archive', { id: 'a1' }, 200]]);
  });

  it('prepares outside the transaction, and replays an answered key before preparing when declared', async () => {
    const fresh = recordingService();
    const create = withService(new CreateThing(), fresh.service);
    expect(await create.run(ctx, { name: 'n' })).toBe('n 42');
    expect(fresh.calls).toEqual([
      ['earlierAnswer', ctx, 'thing.create', { name: 'n' }],
      ['transaction', ctx, 'thing.create', { name: 'n' }, 201],
    ]);
    expect(create.prepared).toBe(1);

    const answered = recordingService('the first answer');
    const replayed = withService(new CreateThing(), answered.service);
    expect(await replayed.run(ctx, { name: 'n' })).toBe('the first answer');
    expect(replayed.prepared).toBe(0);
    expect(answered.calls).toEqual([['earlierAnswer', ctx, 'thing.create', { name: 'n' }]]);
  });

  it('applies a leased declaration: the work gets the lease', async () => {
    const { calls, service } = recordingService();
    expect(await withService(new ChargeThing(), service).run(ctx, { value: 5 })).toBe('5 as res with k_mit');
    expect(calls).toEqual([['leased', ctx, 'thing.charge', { value: 5 }]]);
  });

  it('keeps the declaration on the class', () => {
    expect(useCaseDeclaration(ChargeThing)).toEqual({ operation: 'thing.charge', idempotency: 'leased' });
    expect(useCaseDeclaration(class Plain {})).toBeUndefined();
  });

  it('refuses a declaration its class cannot honour', () => {
    class Plain {
      run(): Promise<void> {
        return Promise.resolve();
      }
    }
    expect(() => UseCase({ operation: 'p', idempotency: 'leased' })(Plain)).toThrow(/'leased' does not match/);
    expect(() => UseCase({ operation: 'c', idempotency: 'none' })(ChargeThing)).toThrow(/'none' does not match/);
    expect(() => UseCase({ operation: 'c', idempotency: 'transaction' })(ChargeThing)).toThrow(/'transaction'/);
    expect(() => UseCase({ operation: 'p', idempotency: 'none' })(Plain)).not.toThrow();
  });
});
