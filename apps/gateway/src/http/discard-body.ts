import type { IncomingMessage } from 'node:http';

/** How much of a refused body is read and thrown away so its sender can read the answer. */
export const DISCARD_LIMIT_BYTES = 64 * 1024 * 1024;
export const DISCARD_LIMIT_MS = 30_000;

/**
 * Reads and discards the rest of a request body. A client that is still sending when the answer comes and the
 * connection closes gets a reset and may never read the answer; once its body is read, it reads it.
 * Resolves true when the body ended within the bounds, false when it was cut short (too much, too slow, gone).
 */
export function discardBody(req: IncomingMessage, o: { maxBytes?: number; maxMs?: number } = {}): Promise<boolean> {
  if (req.complete) return Promise.resolve(true);
  if (req.destroyed || req.readableEnded) return Promise.resolve(false);
  const maxBytes = o.maxBytes ?? DISCARD_LIMIT_BYTES;
  return new Promise((resolve) => {
    let bytes = 0;
    const finish = (ended: boolean) => {
      clearTimeout(timer);
      req.off('data', onData).off('end', onEnd).off('close', onClose).off('error', onClose);
      resolve(ended);
    };
    const onData = (chunk: Buffer | string) => {
      bytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
      if (bytes > maxBytes) finish(false);
    };
    const onEnd = () => finish(true);
    const onClose = () => finish(req.complete);
    const timer = setTimeout(() => finish(false), o.maxMs ?? DISCARD_LIMIT_MS);
    req.on('data', onData).once('end', onEnd).once('close', onClose).once('error', onClose);
    req.resume();
  });
}
