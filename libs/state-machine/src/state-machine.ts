import { IllegalTransition } from './illegal-transition';

/** One row of a transition table: which states an event is allowed in, where it leads, what it announces. */
export interface Move<S extends string, E extends string> {
  readonly from: readonly S[];
  /** The state after the move; omitted, the state stays (the change is to something else: a plan, a card). */
  readonly to?: S;
  /** The domain events the move emits, in order; omitted, it announces nothing. */
  readonly emits?: readonly E[];
  /** Names the move in the refusal: "Cannot <verb> …". */
  readonly verb: string;
  /** States in which the event changes nothing and emits nothing instead of being refused (a second cancel). */
  readonly ignoredIn?: readonly S[];
}

export interface MachineSpec<S extends string, T extends string, E extends string> {
  /** The aggregate, as the diagrams name it. */
  readonly name: string;
  /** Every state, in the order the diagrams list them. */
  readonly states: readonly S[];
  /** The state a record is in before its first move. */
  readonly initial: S;
  readonly moves: Readonly<Record<T, Move<S, E>>>;
  /** The message of the refusal of `verb` in state `from`. */
  readonly refusal: (verb: string, from: S) => string;
}

/** Where a move leads and the events it emits. */
export interface Moved<S extends string, E extends string> {
  readonly to: S;
  readonly events: readonly E[];
}

/** One arrow of the diagram: an event taken in one state. `ignored`: the event changes nothing there. */
export interface Edge<S extends string, T extends string, E extends string> {
  readonly from: S;
  readonly event: T;
  readonly to: S;
  readonly emits: readonly E[];
  readonly ignored: boolean;
}

/**
 * A transition table and the one way to move through it: `transition()` answers the state an event leads to
 * and the events to emit, or throws IllegalTransition (409 INVALID_STATE) for a move the table does not list.
 */
export class StateMachine<S extends string, T extends string, E extends string = never> {
  readonly events: readonly T[];

  constructor(readonly spec: MachineSpec<S, T, E>) {
    this.events = Object.keys(spec.moves) as T[];
    const known = new Set<string>(spec.states);
    const unknown = [spec.initial, ...this.events.flatMap((t) => this.statesOf(spec.moves[t]))].filter(
      (s) => !known.has(s),
    );
    if (unknown.length) throw new Error(`The ${spec.name} table names unknown states: ${unknown.join(', ')}`);
  }

  get name(): string {
    return this.spec.name;
  }

  /** Whether `event` is allowed in `from` (as a move, or as a no-op). */
  can(from: S, event: T): boolean {
    const move = this.spec.moves[event];
    return move.from.includes(from) || !!move.ignoredIn?.includes(from);
  }

  /** Throws the refusal when `event` is not allowed in `from`. */
  check(from: S, event: T): void {
    if (!this.can(from, event)) {
      throw new IllegalTransition(this.name, from, event, this.spec.refusal(this.spec.moves[event].verb, from));
    }
  }

  transition(from: S, event: T): Moved<S, E> {
    this.check(from, event);
    const move = this.spec.moves[event];
    if (move.ignoredIn?.includes(from)) return { to: from, events: [] };
    return { to: move.to ?? from, events: move.emits ?? [] };
  }

  /** Moves `record` by `event` (its status is written nowhere else) and answers the events to emit. */
  apply(record: { status: S }, event: T): readonly E[] {
    const { to, events } = this.transition(record.status, event);
    record.status = to;
    return events;
  }

  /**
   * The move `event` makes, for a guarded UPDATE that makes it on many rows at once: the states a row may be
   * in (the WHERE) and the state it leads to (the SET). Only for a move that changes the state.
   */
  bulk(event: T): { from: readonly S[]; to: S } {
    const { from, to } = this.spec.moves[event];
    if (to === undefined) throw new Error(`The ${this.name} move ${event} changes no state`);
    return { from, to };
  }

  /** The states some move leads from into `to`: what a guarded UPDATE to `to` may find. */
  statesBefore(to: S): S[] {
    const before = new Set(
      this.edges()
        .filter((e) => !e.ignored && e.to === to)
        .map((e) => e.from),
    );
    return this.spec.states.filter((s) => before.has(s));
  }

  /** Every arrow of the table, event by event in table order. */
  edges(): Edge<S, T, E>[] {
    return this.events.flatMap((event) => {
      const move = this.spec.moves[event];
      const emits = move.emits ?? [];
      return [
        ...move.from.map((from) => ({ from, event, to: move.to ?? from, emits, ignored: false })),
        ...(move.ignoredIn ?? []).map((from) => ({ from, event, to: from, emits: [], ignored: true })),
      ];
    });
  }

  private statesOf(move: Move<S, E>): string[] {
    return [...move.from, ...(move.to ? [move.to] : []), ...(move.ignoredIn ?? [])];
  }
}

export function defineMachine<S extends string, T extends string, E extends string = never>(
  spec: MachineSpec<S, T, E>,
): StateMachine<S, T, E> {
  return new StateMachine(spec);
}
