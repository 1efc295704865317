/**
 * A TCP port free on 127.0.0.1 right now: the bench's picker (bench/lib/procs.js), below the ephemeral range, so
 * no outgoing connection takes it first.
 */
export const freePort = (require('../../bench/lib/procs') as { freePort(): Promise<number> }).freePort;
