import { StateMachine } from './state-machine';

/**
 * The machine as a Mermaid `stateDiagram-v2`: `[*]` points at the initial state, each arrow is labelled
 * with its event and the domain events it emits, a no-op is marked as such, and a state with no way out
 * points at `[*]`.
 */
export function toMermaid<S extends string, T extends string, E extends string>(
  machine: StateMachine<S, T, E>,
): string {
  const edges = machine.edges();
  const lines = ['stateDiagram-v2', `    [*] --> ${machine.spec.initial}`];
  for (const e of edges) {
    const label = e.ignored ? `${e.event} (no change)` : [e.event, ...e.emits].join(' / ');
    lines.push(`    ${e.from} --> ${e.to}: ${label}`);
  }
  for (const s of machine.spec.states) {
    if (s !== machine.spec.initial && !edges.some((e) => e.from === s && !e.ignored)) lines.push(`    ${s} --> [*]`);
  }
  return lines.join('\n');
}
