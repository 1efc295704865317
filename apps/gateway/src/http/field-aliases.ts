import { fieldAliasesOf } from '@app/contracts';
import { DomainError } from '@app/errors';
import { knownProperties } from './ignored-fields';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
type Ctor = Function;

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * `value` with every alias a DTO declares (FieldAliases) renamed to its field, at any depth: a copy, the
 * input is left as it came. An alias and its field both sent with different values is 400 VALIDATION_FAILED
 * naming the field; the same value twice is accepted.
 */
export function resolveFieldAliases(type: Ctor, value: unknown, prefix = ''): unknown {
  if (!isPlainObject(value) || !carriesAliases(type)) return value;
  const aliases = fieldAliasesOf(type);
  const known = knownProperties(type);
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    const field = aliases[key];
    if (field === undefined || known.has(key)) {
      if (!(key in out)) out[key] = child;
      continue;
    }
    const path = prefix ? `${prefix}.${field}` : field;
    const given = field in value ? value[field] : out[field];
    if (given !== undefined && given !== child) {
      throw DomainError.validation(`${path} was sent twice with different values (as ${key} and as ${field})`, path);
    }
    out[field] = child;
  }
  for (const [key, child] of Object.entries(out)) {
    const nested = known.get(key);
    if (!nested || !carriesAliases(nested)) continue;
    const path = prefix ? `${prefix}.${key}` : key;
    out[key] = Array.isArray(child)
      ? child.map((item, i) => resolveFieldAliases(nested, item, `${path}[${i}]`))
      : resolveFieldAliases(nested, child, path);
  }
  return out;
}

const carrying = new Map<Ctor, boolean>();

/** Whether `type` or a DTO nested in it declares an alias: bodies of the others are passed through as they are. */
function carriesAliases(type: Ctor): boolean {
  let carries = carrying.get(type);
  if (carries !== undefined) return carries;
  carrying.set(type, false); // a DTO that nests itself is answered while its own answer is worked out
  carries =
    Object.keys(fieldAliasesOf(type)).length > 0 ||
    [...knownProperties(type).values()].some((nested) => nested !== undefined && carriesAliases(nested));
  carrying.set(type, carries);
  return carries;
}
