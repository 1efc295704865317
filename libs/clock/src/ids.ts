import { randomFillSync } from 'node:crypto';

// Entropy is drawn in 4 KiB blocks: one syscall per 512 ids instead of one per id (ids are made per request).
const pool = Buffer.alloc(4096);
let offset = pool.length;

/** `n` (at most 4096) bytes from the CSPRNG; the view is valid until the next call. */
function randomView(n: number): Buffer {
  if (offset + n > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  offset += n;
  return pool.subarray(offset - n, offset);
}

const random8 = (): Buffer => randomView(8);

/**
 * `length` characters drawn uniformly from `alphabet` (at most 256 characters) with the CSPRNG: bytes that
 * would favour the first letters are skipped, so every character is equally likely.
 */
export function randomString(alphabet: string, length: number): string {
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < length) {
    for (const b of randomView(length)) {
      if (b < limit) out += alphabet[b % alphabet.length];
      if (out.length === length) break;
    }
  }
  return out;
}

// Monotonic state of uuidv7() (RFC 9562 §6.2 method 1): the last millisecond used and a 12-bit counter in
// rand_a, so ids made one after another in one process sort in creation order even within a millisecond.
let lastMs = -1;
let counter = 0;

/** A counter start for a new millisecond: random, with the top bit clear so at least 2,048 increments fit. */
const counterSeed = (): number => random8().readUInt16BE(0) & 0x7ff;

/** The millisecond and rand_a counter of the next id of this process: never smaller than the previous one. */
function nextStamp(): [number, number] {
  const now = Date.now();
  if (now > lastMs) {
    lastMs = now;
    counter = counterSeed();
  } else if (counter < 0xfff) {
    counter++;
  } else {
    // 4,096 ids in one millisecond (or the clock stepped back): borrow the next millisecond.
    lastMs++;
    counter = counterSeed();
  }
  return [lastMs, counter];
}

/**
 * UUID v7 (RFC 9562): 48-bit millisecond timestamp then randomness, so ids sort by creation time and keep
 * b-tree inserts local. Ids are identifiers, not business time, so they read the real clock. Without `ms`,
 * ids of this process are strictly increasing (a counter in rand_a), so events written in one transaction
 * keep their order; with `ms` (tests, key-range bounds) rand_a is random.
 */
export function uuidv7(ms?: number): string {
  const bytes = Buffer.allocUnsafe(16);
  const [stamp, seq] = ms === undefined ? nextStamp() : [ms, random8().readUInt16BE(0) & 0xfff];
  bytes.writeUIntBE(stamp, 0, 6);
  bytes.writeUInt16BE(0x7000 | seq, 6);
  random8().copy(bytes, 8);
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The smallest UUID v7 of a millisecond: every UUID v7 made before `ms` sorts below it (bytewise, as PostgreSQL compares). */
export function uuidv7Floor(ms: number): string {
  const hex = Math.max(0, Math.floor(ms)).toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7000-8000-000000000000`;
}
