import { getMetadataStorage } from 'class-validator';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
type Ctor = Function;

const knownCache = new Map<Ctor, Map<string, Ctor | undefined>>();

/** The properties a DTO declares (via its validation decorators), with the class of nested ones. */
export function knownProperties(type: Ctor): Map<string, Ctor | undefined> {
  let known = knownCache.get(type);
  if (known) return known;
  known = new Map();
  for (const m of getMetadataStorage().getTargetValidationMetadatas(type, '', true, false)) {
    if (!known.has(m.propertyName) || known.get(m.propertyName) === undefined) {
      const nested = defaultMetadataStorage.findTypeMetadata(type, m.propertyName)?.typeFunction?.() as
        Ctor | undefined;
      known.set(m.propertyName, nested);
    }
  }
  knownCache.set(type, known);
  return known;
}

/**
 * Paths of the fields in `value` that `type` does not declare ("browserInfo", "card.wallet"): they are
 * ignored, never an error, and named back in the X-Ignored-Fields header (docs/api.md).
 */
export function unknownFieldPaths(type: Ctor, value: unknown, prefix = ''): string[] {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return [];
  const known = knownProperties(type);
  if (known.size === 0) return [];
  const out: string[] = [];
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (!known.has(key)) {
      out.push(path);
      continue;
    }
    const nested = known.get(key);
    if (!nested) continue;
    if (Array.isArray(child)) child.forEach((item, i) => out.push(...unknownFieldPaths(nested, item, `${path}[${i}]`)));
    else out.push(...unknownFieldPaths(nested, child, path));
  }
  return out;
}
