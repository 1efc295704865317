import { DomainError } from './domain-error';

/**
 * PostgreSQL's `text` and `jsonb` cannot hold U+0000, and an unpaired UTF-16 surrogate (`"\uD800"` in JSON) has
 * no UTF-8 form: a string with either can never be stored. Such input is refused where it enters (400
 * VALIDATION_FAILED naming the field) instead of failing the INSERT that would store it (a 500).
 */
const UNSTORABLE = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export interface UnstorableText {
  /** The field's path (`metadata.note`, `events.0.meterCode`); undefined for a key at the top level. */
  param?: string;
  message: string;
}

function problemOf(text: string): string | undefined {
  const found = UNSTORABLE.exec(text);
  if (!found) return undefined;
  return found[0] === '\0'
    ? 'a NUL character (U+0000), which cannot be stored'
    : 'an unpaired UTF-16 surrogate, which is not Unicode text';
}

const join = (path: string, key: string): string => (path ? `${path}.${key}` : key);

/**
 * The first string of a parsed JSON value (object keys included) that cannot be stored, with its path under
 * `prefix`. Walks with a stack of its own: a deeply nested body cannot exhaust the call stack.
 */
export function unstorableText(value: unknown, prefix = ''): UnstorableText | undefined {
  const pending: Array<[unknown, string]> = [[value, prefix]];
  while (pending.length) {
    const [at, path] = pending.pop()!;
    if (typeof at === 'string') {
      const problem = problemOf(at);
      if (problem) return { param: path || undefined, message: `${path || 'The value'} contains ${problem}` };
    } else if (Array.isArray(at)) {
      for (let i = at.length - 1; i >= 0; i--) pending.push([at[i], join(path, String(i))]);
    } else if (at !== null && typeof at === 'object' && !ArrayBuffer.isView(at)) {
      const keys = Object.keys(at);
      for (const key of keys) {
        const problem = problemOf(key);
        // The key itself cannot be echoed safely: the object that holds it is named.
        if (problem) return { param: path || undefined, message: `A key of ${path || 'the body'} contains ${problem}` };
      }
      for (let i = keys.length - 1; i >= 0; i--) {
        pending.push([(at as Record<string, unknown>)[keys[i]], join(path, keys[i])]);
      }
    }
  }
  return undefined;
}

/** Throws 400 VALIDATION_FAILED naming the first string of `value` that cannot be stored. */
export function assertStorableText(value: unknown, prefix = ''): void {
  const found = unstorableText(value, prefix);
  if (found) throw DomainError.validation(found.message, found.param);
}
