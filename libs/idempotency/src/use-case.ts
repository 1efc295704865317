import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { CallerContext } from '@app/contracts';
import { IdempotencyService, LeasedRun } from './idempotency.service';
import { SealedIdempotency } from './sealed-idempotency';

/**
 * How a command honours the caller's Idempotency-Key: `transaction` claims the key in the one transaction of the
 * work and stores the answer with it; `leased` takes the key in a row of its own for work that calls other
 * services first (IdempotencyService.leased); `sealed` leases it likewise for work that runs in transactions of its
 * own and stores the answer when the work is done, sealed when it shows a secret (SealedIdempotency); `none`
 * keeps no answer.
 */
export type IdempotencyMode = 'transaction' | 'leased' | 'sealed' | 'none';

/** What `@UseCase` declares about a command (one verb): its operation name and how its key is honoured. */
export interface UseCaseDeclaration<C = never> {
  /** The operation a key is recorded under (`subscription.change-plan`): a key of another operation is 422. */
  operation: string;
  idempotency: IdempotencyMode;
  /** `transaction`: the status stored with the answer (201 for a creation; 200 otherwise). */
  status?: number;
  /** What the key's fingerprint is taken of; the whole command when absent. */
  request?: (command: C) => unknown;
  /**
   * `transaction` with a `prepare` step: a key that already has an answer replays it before `prepare` runs, so a
   * retry calls nothing out again (a key still in progress is 409 there).
   */
  replayBeforePrepare?: boolean;
  /** `sealed`: the answer shows a secret (a signing secret), so it is stored sealed and opened for a replay. */
  secret?: boolean;
}

const DECLARATION = Symbol('use-case:declaration');

/**
 * A command's class: `run(ctx, command)` is its one verb. With `idempotency: 'transaction'` it extends
 * TransactionUseCase, with `leased` LeasedUseCase, with `sealed` SealedUseCase, whose `run` applies the
 * declaration around the class's `execute`; with `none` it writes `run` itself. Nest constructs it (Injectable).
 */
export function UseCase<C>(declaration: UseCaseDeclaration<C>): ClassDecorator {
  return (target) => {
    const bases = { transaction: TransactionUseCase, leased: LeasedUseCase, sealed: SealedUseCase, none: undefined };
    const base = bases[declaration.idempotency];
    const proto: unknown = target.prototype;
    const idempotent = [TransactionUseCase, LeasedUseCase, SealedUseCase].some((b) => proto instanceof b);
    if (base ? !(proto instanceof base) : idempotent) {
      throw new Error(`${target.name}: idempotency '${declaration.idempotency}' does not match its base class`);
    }
    if (declaration.secret && declaration.idempotency !== 'sealed') {
      throw new Error(`${target.name}: only a 'sealed' use case stores its answer sealed (secret)`);
    }
    Reflect.defineMetadata(DECLARATION, declaration, target);
    Injectable()(target);
  };
}

/** The declaration of a `@UseCase` class (undefined for any other). */
export function useCaseDeclaration(type: abstract new (...args: never[]) => unknown): UseCaseDeclaration | undefined {
  return Reflect.getOwnMetadata(DECLARATION, type) as UseCaseDeclaration | undefined;
}

function declared(instance: object): UseCaseDeclaration<unknown> & { request: (command: unknown) => unknown } {
  const declaration = Reflect.getOwnMetadata(DECLARATION, instance.constructor) as UseCaseDeclaration | undefined;
  if (!declaration) throw new Error(`${instance.constructor.name} has no @UseCase declaration`);
  const request = (declaration.request as ((command: unknown) => unknown) | undefined) ?? ((command) => command);
  return { ...declaration, request };
}

/**
 * A command that is one transaction: `run` claims the key in it (a twin in flight waits for its commit and
 * replays its answer), `execute` does the work with the transaction's manager, and the answer is stored with it.
 * `prepare`, when the class has it, runs before the transaction (calls to other services: nothing calls out
 * inside one), and its result reaches `execute`.
 */
export abstract class TransactionUseCase<C, R, P = undefined> {
  @Inject(IdempotencyService) private readonly idempotency: IdempotencyService;

  protected prepare?(ctx: CallerContext, command: C): Promise<P>;

  async run(ctx: CallerContext, command: C): Promise<R> {
    const d = declared(this);
    const request = d.request(command);
    if (d.replayBeforePrepare) {
      const earlier = await this.idempotency.earlierAnswer<R>(ctx, d.operation, request);
      if (earlier !== undefined) return earlier;
    }
    const prepared = (this.prepare ? await this.prepare(ctx, command) : undefined) as P;
    return this.idempotency.transaction(ctx, d.operation, request, d.status ?? 200, (manager) =>
      this.execute(ctx, command, manager, prepared),
    );
  }

  protected abstract execute(ctx: CallerContext, command: C, manager: EntityManager, prepared: P): Promise<R>;
}

/**
 * A command that calls other services before the transaction recording its outcome: `run` leases the key
 * (replay, 409 and 422 decided first; an error frees it), and `execute` gets the lease: the resource id, the
 * keys of its own calls, and `answer` to store its answer in the transaction of its change.
 */
export abstract class LeasedUseCase<C, R> {
  @Inject(IdempotencyService) private readonly idempotency: IdempotencyService;

  run(ctx: CallerContext, command: C): Promise<R> {
    const d = declared(this);
    return this.idempotency.leased(ctx, d.operation, d.request(command), (lease) => this.execute(ctx, command, lease));
  }

  protected abstract execute(ctx: CallerContext, command: C, lease: LeasedRun): Promise<R>;
}

/**
 * A command whose work runs in transactions of its own (the webhooks service's changes): `run` leases the key
 * (replay, 409 and 422 decided first; an error frees it), `execute` does the work, and its answer is stored when
 * it is done, sealed when the declaration says `secret`. The service provides the runner as SealedIdempotency.
 */
export abstract class SealedUseCase<C, R> {
  @Inject(SealedIdempotency) private readonly sealed: SealedIdempotency;

  run(ctx: CallerContext, command: C): Promise<R> {
    const d = declared(this);
    const work = () => this.execute(ctx, command);
    return this.sealed.run(ctx, d.operation, d.request(command), work, { secret: d.secret });
  }

  protected abstract execute(ctx: CallerContext, command: C): Promise<R>;
}
