import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

type Storage = ReturnType<typeof getMetadataStorage>;
type GetTargetMetadatas = Storage['getTargetValidationMetadatas'];

const memoized = new WeakSet<Storage>();

/**
 * class-validator works out the rules of a class each time it validates an object of it, by scanning the
 * rules of every class it knows (for inherited ones); for a nested payment body that is most of the cost of
 * validating it. The rules are fixed once the decorators have run, so the answers are kept, and dropped
 * whenever a rule is added (a class loaded later). Same answers, same objects, computed once.
 */
export function memoizeValidationMetadata(storage: Storage = getMetadataStorage()): void {
  if (memoized.has(storage)) return;
  memoized.add(storage);
  const compute: GetTargetMetadatas = storage.getTargetValidationMetadatas.bind(storage);
  const group = storage.groupByPropertyName.bind(storage);
  let byTarget = new WeakMap<object, Map<string, ValidationMetadata[]>>();
  let grouped = new WeakMap<ValidationMetadata[], Record<string, ValidationMetadata[]>>();

  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    const key = `${schema}\u0000${always}\u0000${strictGroups}\u0000${groups?.join('\u0001') ?? ''}`;
    let forTarget = byTarget.get(target);
    if (!forTarget) byTarget.set(target, (forTarget = new Map()));
    let found = forTarget.get(key);
    if (!found) forTarget.set(key, (found = compute(target, schema, always, strictGroups, groups)));
    return found;
  };
  storage.groupByPropertyName = (metadata) => {
    let found = grouped.get(metadata);
    if (!found) grouped.set(metadata, (found = group(metadata)));
    return found;
  };
  for (const method of ['addValidationMetadata', 'addConstraintMetadata', 'addValidationSchema'] as const) {
    const add = storage[method].bind(storage) as (arg: never) => void;
    storage[method] = ((arg: never) => {
      byTarget = new WeakMap();
      grouped = new WeakMap();
      add(arg);
    }) as never;
  }
}
