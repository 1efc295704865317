import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { coalesceNatsWrites } from './coalesce-writes';
import { NatsPatchError } from './nats-patch';
import { settleNatsRequestsQuietly } from './settled-requests';

const { RequestOne } = require('nats/lib/nats-base-client/request') as { RequestOne: { prototype: object } };
const { ProtocolHandler } = require('nats/lib/nats-base-client/protocol') as {
  ProtocolHandler: { prototype: object };
};

/** A copy of a nats class's prototype (its methods as they are now), changed as an upgrade might change it. */
function upgraded(proto: object, change: (copy: Record<string, unknown>) => void): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const name of Object.getOwnPropertyNames(proto)) copy[name] = (proto as Record<string, unknown>)[name];
  change(copy);
  return copy;
}

const patches = [
  {
    name: 'RequestOne.prototype.resolver',
    apply: settleNatsRequestsQuietly,
    proto: RequestOne.prototype,
    method: 'resolver',
  },
  {
    name: 'ProtocolHandler.prototype.sendCommand',
    apply: coalesceNatsWrites,
    proto: ProtocolHandler.prototype,
    method: 'sendCommand',
  },
];

describe.each(patches)('the patch of $name', ({ apply, proto, method }) => {
  it('fails loudly when an upgraded nats lacks the method it replaces', () => {
    const fake = upgraded(proto, (c) => delete c[method]);
    expect(() => apply(fake)).toThrow(NatsPatchError);
    expect(() => apply(fake)).toThrow(/nats\.js changed: .* missing/);
  });

  it('fails loudly when the method it replaces is another code, and leaves it in place', () => {
    const changed = function (this: unknown) {
      return 'new behaviour';
    };
    const fake = upgraded(proto, (c) => (c[method] = changed));
    expect(() => apply(fake)).toThrow(/is not the code its replacement was written against/);
    expect(fake[method]).toBe(changed);
  });

  it('fails loudly when a method the replacement relies on is gone', () => {
    const fake = upgraded(proto, (c) => {
      delete c[method === 'resolver' ? 'cancel' : 'flushPending'];
    });
    expect(() => apply(fake)).toThrow(NatsPatchError);
  });

  it('takes effect on the installed nats, once', () => {
    // A copy of the installed prototype (this file never patches the real one).
    const installed = upgraded(proto, () => undefined);
    const original = installed[method];
    apply(installed);
    const patched = installed[method];
    expect(patched).not.toBe(original);
    apply(installed);
    expect(installed[method]).toBe(patched);
  });
});

describe('nats', () => {
  it('is pinned to one exact version, the one installed', () => {
    const root = join(__dirname, '../../..');
    const wanted = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).dependencies.nats;
    const installed = JSON.parse(readFileSync(join(root, 'node_modules/nats/package.json'), 'utf8')).version;
    expect(wanted).toMatch(/^\d+\.\d+\.\d+$/);
    expect(wanted).toBe(installed);
  });
});
