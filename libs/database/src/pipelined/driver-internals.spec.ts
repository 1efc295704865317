import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { DataSource, QueryRunner } from 'typeorm';
import {
  DriverInternalsError,
  inPipelineMode,
  markTransactionActive,
  poolIfOpen,
  poolOf,
  socketOf,
} from './driver-internals';

const root = join(__dirname, '../../../..');
const manifest = (path: string) => JSON.parse(readFileSync(join(root, path), 'utf8'));

describe.each(['pg', 'typeorm'])('%s', (library) => {
  it('is pinned to one exact version, the one installed (driver-internals.ts reaches into it)', () => {
    const wanted = manifest('package.json').dependencies[library];
    expect(wanted).toMatch(/^\d+\.\d+\.\d+$/);
    expect(manifest(`node_modules/${library}/package.json`).version).toBe(wanted);
    expect(manifest('package-lock.json').packages[''].dependencies[library]).toBe(wanted);
  });
});

describe('the reaches into pg', () => {
  it("read the installed Client's pipeline flag and corkable socket", () => {
    const piped = new Client({ pipeline: true } as never);
    const plain = new Client();
    expect(inPipelineMode(piped as never)).toBe(true);
    expect(inPipelineMode(plain as never)).toBe(false);
    const socket = socketOf(piped as never);
    expect(typeof socket.cork).toBe('function');
    expect(typeof socket.uncork).toBe('function');
  });

  it('fail loudly, naming pg, on a client that keeps them elsewhere', () => {
    const moved = { connection: {} } as never;
    expect(() => inPipelineMode(moved)).toThrow(DriverInternalsError);
    expect(() => inPipelineMode(moved)).toThrow(/^pg changed: Client has no boolean `pipeline`/);
    expect(() => socketOf(moved)).toThrow(/^pg changed: Client has no corkable socket/);
  });
});

describe('the reaches into TypeORM', () => {
  const ds = new DataSource({ type: 'postgres', url: 'postgres://nobody@127.0.0.1:1/none' });

  it("set the installed QueryRunner's transaction flag, which its own transaction methods read", () => {
    const runner = ds.createQueryRunner();
    expect(runner.isTransactionActive).toBe(false);
    markTransactionActive(runner, true);
    expect(runner.isTransactionActive).toBe(true);
    markTransactionActive(runner, false);
    expect(runner.isTransactionActive).toBe(false);
    // TypeORM's save/insert open a transaction of their own unless this flag says one is open.
    const source = String(Object.getPrototypeOf(runner).startTransaction);
    expect(source).toContain('this.isTransactionActive');
  });

  it('find the pg Pool where the installed postgres driver keeps it once connected (`master`)', () => {
    expect(String(Object.getPrototypeOf(ds.driver).connect)).toMatch(/this\.master = await this\.createPool\(/);
    expect(poolIfOpen(ds)).toBeUndefined();
  });

  it('fail loudly, naming TypeORM, when the pool or the flag is not where they look', () => {
    expect(() => poolOf(ds)).toThrow(DriverInternalsError);
    expect(() => poolOf(ds)).toThrow(/^typeorm changed: the postgres driver has no pg Pool in `master`/);
    expect(() => markTransactionActive({} as QueryRunner, true)).toThrow(
      /^typeorm changed: QueryRunner has no boolean/,
    );
  });
});
