import { coalesceNatsWrites } from './coalesce-writes';

const { ProtocolHandler } = require('nats/lib/nats-base-client/protocol') as {
  ProtocolHandler: { prototype: { sendCommand(this: unknown, cmd: string): void } };
};

/** A protocol handler's fields that sendCommand uses, with a counting flush. */
function fakeProtocol() {
  const chunks: Uint8Array[] = [];
  const p = {
    pendingLimit: 1024 * 32,
    flushes: 0,
    outbound: {
      length: () => chunks.length,
      size: () => chunks.reduce((n, c) => n + c.length, 0),
      fill: (buf: Uint8Array) => void chunks.push(buf),
    },
    flushPending() {
      if (chunks.length) p.flushes++;
      chunks.length = 0;
    },
  };
  return p;
}

describe('coalesceNatsWrites', () => {
  it('patches the nats 2.x protocol handler', () => {
    const original = ProtocolHandler.prototype.sendCommand;
    coalesceNatsWrites();
    expect(ProtocolHandler.prototype.sendCommand).not.toBe(original);
  });

  it('sends every command queued during one event-loop turn in one flush, after the turn', async () => {
    coalesceNatsWrites();
    const p = fakeProtocol();
    ProtocolHandler.prototype.sendCommand.call(p, 'PUB a 0\r\n\r\n');
    await Promise.resolve(); // a microtask later (nats.js would have flushed here)
    ProtocolHandler.prototype.sendCommand.call(p, 'PUB b 0\r\n\r\n');
    expect(p.flushes).toBe(0);
    await new Promise((r) => setImmediate(r));
    expect(p.flushes).toBe(1);
    ProtocolHandler.prototype.sendCommand.call(p, 'PUB c 0\r\n\r\n');
    await new Promise((r) => setImmediate(r));
    expect(p.flushes).toBe(2);
  });

  it('still flushes at once when the buffer passes the pending limit', () => {
    const p = { ...fakeProtocol(), pendingLimit: 4 };
    p.flushPending = function () {
      this.flushes++;
    };
    ProtocolHandler.prototype.sendCommand.call(p, 'PUB big 0\r\n\r\n');
    expect(p.flushes).toBe(1);
  });
});
