import { DomainError } from '@app/errors';
import { IllegalTransition } from './illegal-transition';
import { toMermaid } from './mermaid';
import { defineMachine } from './state-machine';

type Door = 'new' | 'open' | 'closed' | 'locked' | 'gone';
type DoorEvent = 'build' | 'close' | 'open' | 'lock' | 'paint' | 'remove';

const door = defineMachine<Door, DoorEvent, string>({
  name: 'door',
  states: ['new', 'open', 'closed', 'locked', 'gone'],
  initial: 'new',
  moves: {
    build: { from: ['new'], to: 'open', emits: ['door.built', 'door.opened'], verb: 'build' },
    close: { from: ['open'], to: 'closed', emits: ['door.closed'], verb: 'close', ignoredIn: ['closed'] },
    open: { from: ['closed'], to: 'open', emits: ['door.opened'], verb: 'open' },
    lock: { from: ['closed'], to: 'locked', verb: 'lock' },
    paint: { from: ['open', 'closed'], emits: ['door.painted'], verb: 'paint' },
    remove: { from: ['open', 'closed', 'locked'], to: 'gone', emits: ['door.removed'], verb: 'remove' },
  },
  refusal: (verb, from) => `Cannot ${verb} a door that is ${from}`,
});

const refusalOf = (fn: () => unknown): IllegalTransition | undefined => {
  try {
    fn();
  } catch (e) {
    if (e instanceof IllegalTransition) return e;
    throw e;
  }
  return undefined;
};

describe('state machine', () => {
  it('answers the target and the events of an allowed move', () => {
    expect(door.transition('new', 'build')).toEqual({ to: 'open', events: ['door.built', 'door.opened'] });
    expect(door.transition('closed', 'lock')).toEqual({ to: 'locked', events: [] });
  });

  it('keeps the state for a move without a target, and for a no-op without an event', () => {
    expect(door.transition('closed', 'paint')).toEqual({ to: 'closed', events: ['door.painted'] });
    expect(door.transition('closed', 'close')).toEqual({ to: 'closed', events: [] });
    expect(door.can('closed', 'close')).toBe(true);
  });

  it('refuses a move the table does not list with one typed error, the 409 INVALID_STATE', () => {
    const e = refusalOf(() => door.transition('locked', 'open'))!;
    expect(e).toBeInstanceOf(DomainError);
    expect(e).toMatchObject({ code: 'INVALID_STATE', status: 409, machine: 'door', from: 'locked', event: 'open' });
    expect(e.message).toBe('Cannot open a door that is locked');
    expect(refusalOf(() => door.check('gone', 'remove'))?.message).toBe('Cannot remove a door that is gone');
  });

  it('apply writes the status only when the move is allowed', () => {
    const d = { status: 'open' as Door };
    expect(door.apply(d, 'close')).toEqual(['door.closed']);
    expect(d.status).toBe('closed');
    expect(refusalOf(() => door.apply(d, 'build'))).toBeDefined();
    expect(d.status).toBe('closed');
  });

  it('transition, can and check agree for every state and event', () => {
    for (const from of door.spec.states) {
      for (const event of door.events) {
        const refused = refusalOf(() => door.transition(from, event)) !== undefined;
        expect(refused).toBe(!door.can(from, event));
        expect(refusalOf(() => door.check(from, event)) !== undefined).toBe(refused);
      }
    }
  });

  it('gives a bulk move its guard and target, and refuses one that keeps the state', () => {
    expect(door.bulk('remove')).toEqual({ from: ['open', 'closed', 'locked'], to: 'gone' });
    expect(() => door.bulk('paint')).toThrow('The door move paint changes no state');
  });

  it('lists the states a move to a state may start from, no-ops left out', () => {
    expect(door.statesBefore('gone')).toEqual(['open', 'closed', 'locked']);
    expect(door.statesBefore('closed')).toEqual(['open', 'closed']);
    expect(door.statesBefore('new')).toEqual([]);
  });

  it('refuses a table that names a state it does not declare', () => {
    expect(() =>
      defineMachine<'a' | 'b', 'go'>({
        name: 'broken',
        states: ['a'] as Array<'a' | 'b'>,
        initial: 'a',
        moves: { go: { from: ['a'], to: 'b', verb: 'go' } },
        refusal: () => 'no',
      }),
    ).toThrow('The broken table names unknown states: b');
  });

  it('draws the table as a Mermaid state diagram', () => {
    expect(toMermaid(door)).toBe(
      [
        'stateDiagram-v2',
        '    [*] --> new',
        '    new --> open: build / door.built / door.opened',
        '    open --> closed: close / door.closed',
        '    closed --> closed: close (no change)',
        '    closed --> open: open / door.opened',
        '    closed --> locked: lock',
        '    open --> open: paint / door.painted',
        '    closed --> closed: paint / door.painted',
        '    open --> gone: remove / door.removed',
        '    closed --> gone: remove / door.removed',
        '    locked --> gone: remove / door.removed',
        '    gone --> [*]',
      ].join('\n'),
    );
  });
});
