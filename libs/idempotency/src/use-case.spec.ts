import 'reflect-metadata';
import type { EntityManager } from 'typeorm';
import type { CallerContext } from '@app/contracts';
import type { IdempotencyService, LeasedRun } from './idempotency.service';
import type { SealedIdempotency } from './sealed-idempotency';
import { LeasedUseCase, SealedUseCase, TransactionUseCase, UseCase, useCaseDeclaration } from './use-case';

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

@UseCase({
  operation: 'thing.roll',
  idempotency: 'sealed',
  secret: true,
  request: ({ id }: { id: string }) => ({ id }),
})
class RollThing extends SealedUseCase<{ id: string; note: string }, { secret: string }> {
  protected execute(_ctx: CallerContext, command: { id: string }): Promise<{ secret: string }> {
    return Promise.resolve({ secret: `whsec_${command.id}` });
  }
}

@UseCase({ operation: 'thing.rename', idempotency: 'sealed' })
class RenameThing extends SealedUseCase<{ name: string }, string> {
  protected execute(_ctx: CallerContext, command: { name: string }): Promise<string> {
    return Promise.resolve(`renamed ${command.name}`);
  }
}

/** What the use case asked of the sealed-answer runner (its own semantics have e2e tests). */
function recordingRunner() {
  const calls: unknown[][] = [];
  const runner = {
    run: (...args: unknown[]) => {
      calls.push(['run', args[0], args[1], args[2], args[4]]);
      return (args[3] as () => Promise<unknown>)();
    },
  };
  return { calls, runner: runner as unknown as SealedIdempotency };
}

const withRunner = <T extends object>(useCase: T, runner: SealedIdempotency): T =>
  Object.assign(useCase, { sealed: runner });

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

  it('applies a sealed declaration: the runner stores the answer, sealed when it shows a secret', async () => {
    const rolled = recordingRunner();
    const roll = withRunner(new RollThing(), rolled.runner);
    expect(await roll.run(ctx, { id: 'e1', note: 'n' })).toEqual({ secret: 'whsec_e1' });
    expect(rolled.calls).toEqual([['run', ctx, 'thing.roll', { id: 'e1' }, { secret: true }]]);

    const renamed = recordingRunner();
    const rename = withRunner(new RenameThing(), renamed.runner);
    expect(await rename.run(ctx, { name: 'x' })).toBe('renamed x');
    expect(renamed.calls).toEqual([['run', ctx, 'thing.rename', { name: 'x' }, { secret: undefined }]]);
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
    expect(() => UseCase({ operation: 'r', idempotency: 'leased' })(RollThing)).toThrow(/'leased' does not match/);
    expect(() => UseCase({ operation: 'c', idempotency: 'sealed' })(ChargeThing)).toThrow(/'sealed' does not match/);
    expect(() => UseCase({ operation: 'r', idempotency: 'none' })(RollThing)).toThrow(/'none' does not match/);
    expect(() => UseCase({ operation: 'c', idempotency: 'leased', secret: true })(ChargeThing)).toThrow(
      /only a 'sealed'/,
    );
    expect(() => UseCase({ operation: 'p', idempotency: 'none' })(Plain)).not.toThrow();
  });
});
