import { createHash, createHmac } from 'node:crypto';

/**
 * The version written in front of every fingerprint: `v3:` and an HMAC-SHA256 of the canonical request under
 * the deployment's IDEMPOTENCY_FINGERPRINT_KEY. A request may carry card data; a plain hash of it, kept next to
 * an answer that shows the BIN, the last four digits and the expiry, would give the rest of the number and the
 * CVV to a brute force in minutes. Keyed, it cannot be recomputed without the secret.
 */
export const FINGERPRINT_VERSION = 'v3';
const PREFIX = `${FINGERPRINT_VERSION}:`;

/**
 * The fingerprints earlier releases stored, each recognised by its prefix, so a key still live across the
 * upgrade (keys live 24 hours) replays a retry of the same request instead of answering 422. They are only
 * compared, never written; remove them a release after this one.
 * - `v2:`: a plain SHA-256 of the canonical request.
 * - no prefix: the same, as payments and payment-links wrote it before the version.
 * - `v1-as-sent:`: billing's first fingerprint, the operation and the body as sent (key order included),
 *   marked so by the migration that moved billing's keys into `idempotency_keys`.
 */
const PLAIN = 'v2:';
export const AS_SENT = 'v1-as-sent:';

/** JSON with object keys sorted at every level and undefined left out, so equal requests hash equal. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * Request fingerprints under one deployment secret: key order and whitespace of the body never change one, any
 * value does, and none can be recomputed from the request without the secret.
 */
export class RequestFingerprints {
  constructor(private readonly key: string) {
    if (!key) throw new Error('A request fingerprint needs a secret key');
  }

  /** The fingerprint stored for a request now. */
  of(request: unknown): string {
    return PREFIX + createHmac('sha256', this.key).update(canonicalJson(request)).digest('hex');
  }

  /** Whether `stored` is this request's: by the current algorithm, or by the one of the release that wrote it. */
  matches(stored: string, request: unknown, operation: string): boolean {
    if (stored.startsWith(PREFIX)) return stored === this.of(request);
    return this.earlierForms(request, operation).includes(stored);
  }

  /** What a row written by an earlier release holds for this request (a released row keeps it: see `lease`). */
  earlierForms(request: unknown, operation: string): string[] {
    const plain = sha256(canonicalJson(request));
    return [PLAIN + plain, plain, AS_SENT + sha256(`${operation}\n${JSON.stringify(request ?? {})}`)];
  }
}
