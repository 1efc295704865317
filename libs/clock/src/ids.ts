import { randomFillSync } from 'node:crypto';

// Entropy is drawn in 4 KiB blocks: one syscall per 512 ids instead of one per id (ids are made per request).
const pool = Buffer.alloc(4096);
let offset = pool.length;

function random8(): Buffer {
  if (offset + 8 > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  offset += 8;
  return pool.subarray(offset - 8, offset);
}

/**
 * UUID v7 (RFC 9562): 48-bit millisecond timestamp then randomness, so ids sort by creation time and keep
 * b-tree inserts local. Ids are identifiers, not business time, so they read the real clock.
 */
export function uuidv7(): string {
  const bytes = Buffer.allocUnsafe(16);
  const ms = Date.now();
  bytes.writeUIntBE(ms, 0, 6);
  random8().copy(bytes, 6);
  bytes.writeUInt16BE(random8().readUInt16BE(0), 14);
  bytes[6] = (bytes[6] & 0x0f) | 0x70;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
