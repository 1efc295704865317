import { createHash } from 'node:crypto';

/**
 * Replaces one method of a nats.js class with this project's version, checking first that the method is the
 * code the replacement was written against (nats is pinned to an exact version in package.json): the sha256
 * of its source, whitespace collapsed. A nats upgrade that changed, moved or removed it stops the service at
 * start with a NatsPatchError instead of leaving the library unpatched or patched over code it no longer
 * matches; review the replacement against the new source, then update `sourceSha256`.
 */
export interface NatsMethodPatch {
  /** For the error message: `Class.prototype.method (nats/lib/…)`. */
  target: string;
  proto: Record<string, unknown> | undefined;
  method: string;
  /** sourceHash() of the method the replacement was written against. */
  sourceSha256: string;
  /** Other methods of the class that the replacement calls. */
  uses: string[];
  replacement: (...args: never[]) => unknown;
}

export class NatsPatchError extends Error {
  override readonly name = 'NatsPatchError';
}

export function sourceHash(fn: unknown): string {
  return createHash('sha256').update(String(fn).replace(/\s+/g, ' ')).digest('hex');
}

export function patchNatsMethod(p: NatsMethodPatch): void {
  const current = p.proto?.[p.method];
  if (current === p.replacement) return;
  const missing = [p.method, ...p.uses].filter((m) => typeof p.proto?.[m] !== 'function');
  if (missing.length) {
    throw new NatsPatchError(`nats.js changed: ${p.target} cannot be patched, missing ${missing.join(', ')}`);
  }
  if (sourceHash(current) !== p.sourceSha256) {
    throw new NatsPatchError(
      `nats.js changed: ${p.target} is not the code its replacement was written against; review the patch`,
    );
  }
  p.proto![p.method] = p.replacement;
  if (p.proto![p.method] !== p.replacement) {
    throw new NatsPatchError(`nats.js patch of ${p.target} did not take effect`);
  }
}
