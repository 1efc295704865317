import { createHash } from 'node:crypto';

/**
 * The version written in front of every fingerprint. A stored fingerprint without it was written by an
 * earlier release with that service's earlier algorithm (its `LegacyFingerprint`), and still matches a retry
 * of the same request, so an upgrade while keys are live never turns a valid retry into a 422.
 */
export const FINGERPRINT_VERSION = 'v2';
const PREFIX = `${FINGERPRINT_VERSION}:`;

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

/** The request's fingerprint: key order and whitespace of the body never change it, any value does. */
export function fingerprint(request: unknown): string {
  return PREFIX + sha256(canonicalJson(request));
}

/**
 * The hash of a fingerprint without its version: what a value derived from the request (an acquirer's request
 * reference) is computed from, so that it stays the same for a retry across the upgrade that versioned it.
 */
export function fingerprintDigest(stored: string): string {
  return stored.startsWith(PREFIX) ? stored.slice(PREFIX.length) : stored;
}

/** How a service fingerprinted a request before the versioned fingerprint. */
export type LegacyFingerprint = (request: unknown, operation: string) => string;

/** The first fingerprint of payments and payment-links: the same hash, without the version. */
export const unversionedFingerprint: LegacyFingerprint = (request) => sha256(canonicalJson(request));

/** Whether a stored fingerprint is this request's: by the current algorithm, or by `legacy` for an older row. */
export function sameRequest(
  stored: string,
  request: unknown,
  operation: string,
  legacy: LegacyFingerprint = unversionedFingerprint,
): boolean {
  return stored.startsWith(PREFIX) ? stored === fingerprint(request) : stored === legacy(request, operation);
}
