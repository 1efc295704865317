/** The request header that makes a POST safe to retry (DECISIONS §1). */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

/** 1-255 printable ASCII characters; a uuid v4 is recommended. */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x20-\x7E]{1,255}$/;

export const isValidIdempotencyKey = (key: unknown): key is string =>
  typeof key === 'string' && IDEMPOTENCY_KEY_PATTERN.test(key);

/** JSON with object keys sorted at every level and undefined left out, so equal requests hash equal. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}
