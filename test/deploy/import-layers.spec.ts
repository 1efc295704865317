import { join, relative } from 'node:path';
import { typescriptFiles } from '../support/source-files';
import {
  describeUpward,
  Import,
  importsOf,
  resolveImport,
  specifiersOf,
  UpwardImport,
  upwardImports,
} from './import-graph';
import { KNOWN_LOOPS } from './known-import-loops';

const ROOT = join(__dirname, '..', '..');

/** Every source file of the apps and libraries (unit specs left out: a test may reach across folders). */
const sources = ['apps', 'libs'].flatMap((d) => typescriptFiles(join(ROOT, d))).map((f) => relative(ROOT, f));

const imp = (from: string, to: string): Import => ({ from, specifier: to, to });

describe('import layers', () => {
  const imports = importsOf(ROOT, sources);

  it('reads the import graph of the apps and libraries', () => {
    expect(sources.length).toBeGreaterThan(500);
    expect(imports.length).toBeGreaterThan(2000);
    // A relative import, an @app/ library and a re-export are all followed to their file.
    expect(imports).toContainEqual({
      from: 'apps/gateway/src/auth/api-key.guard.ts',
      specifier: './credential-resolver',
      to: 'apps/gateway/src/auth/credential-resolver.ts',
    });
    expect(imports).toContainEqual(
      expect.objectContaining({ from: 'apps/gateway/src/gateway.module.ts', to: 'libs/platform/src/index.ts' }),
    );
  });

  const upward = upwardImports(imports);
  /** The step of the loop an upward import takes: `from-folder → to-folder`. */
  const stepOf = (u: UpwardImport) => `${u.path[0]} → ${u.path[1]}`;

  it('has no import that climbs upward: no loop between sibling folders, no feature importing its app root', () => {
    expect(upward.filter((u) => !KNOWN_LOOPS.includes(stepOf(u))).map(describeUpward)).toEqual([]);
  });

  it('lists only loops that still exist as known (known-import-loops.ts shrinks as they are untied)', () => {
    const steps = new Set(upward.map(stepOf));
    expect(KNOWN_LOOPS.filter((step) => !steps.has(step))).toEqual([]);
    // The gateway, payments, billing and the libraries are out of the list: no loop is tolerated there.
    expect(KNOWN_LOOPS.filter((step) => /^(apps\/gateway|apps\/payments|apps\/billing|libs)\//.test(step))).toEqual([]);
  });

  it('keeps authentication below the dashboard: auth/ asks a port, the dashboard provides it', () => {
    const gateway = 'apps/gateway/src/';
    const fromAuth = imports.filter((i) => i.from.startsWith(`${gateway}auth/`)).map((i) => i.to);
    expect(fromAuth.filter((to) => to.startsWith(`${gateway}dashboard/`) || to.startsWith(`${gateway}sdk/`))).toEqual(
      [],
    );
  });
});

describe('the upward import rule', () => {
  it('reports both imports of a loop between sibling folders, naming the loop', () => {
    const found = upwardImports([
      imp('apps/a/src/auth/guard.ts', 'apps/a/src/dashboard/cookie.ts'),
      imp('apps/a/src/dashboard/principal.ts', 'apps/a/src/auth/permission.ts'),
      imp('apps/a/src/dashboard/principal.ts', 'apps/a/src/http/errors.ts'),
    ]);
    expect(found.map(describeUpward)).toEqual([
      "apps/a/src/auth/guard.ts: import 'apps/a/src/dashboard/cookie.ts' closes the loop apps/a/src/auth → apps/a/src/dashboard → apps/a/src/auth",
      "apps/a/src/dashboard/principal.ts: import 'apps/a/src/auth/permission.ts' closes the loop apps/a/src/dashboard → apps/a/src/auth → apps/a/src/dashboard",
    ]);
  });

  it('finds a loop through several folders, and one at any depth (libraries, folders inside a folder)', () => {
    const found = upwardImports([
      imp('apps/a/src/x/one.ts', 'apps/a/src/y/two.ts'),
      imp('apps/a/src/y/two.ts', 'apps/a/src/z/three.ts'),
      imp('apps/a/src/z/three.ts', 'apps/a/src/x/four.ts'),
      imp('libs/errors/src/index.ts', 'libs/contracts/src/index.ts'),
      imp('libs/contracts/src/codes.ts', 'libs/errors/src/index.ts'),
      imp('apps/b/src/p/q/one.ts', 'apps/b/src/p/r/two.ts'),
      imp('apps/b/src/p/r/two.ts', 'apps/b/src/p/q/three.ts'),
    ]);
    expect(found.map((u) => u.path.join(' → '))).toEqual([
      'apps/a/src/x → apps/a/src/y → apps/a/src/z → apps/a/src/x',
      'apps/a/src/y → apps/a/src/z → apps/a/src/x → apps/a/src/y',
      'apps/a/src/z → apps/a/src/x → apps/a/src/y → apps/a/src/z',
      'libs/errors → libs/contracts → libs/errors',
      'libs/contracts → libs/errors → libs/contracts',
      'apps/b/src/p/q → apps/b/src/p/r → apps/b/src/p/q',
      'apps/b/src/p/r → apps/b/src/p/q → apps/b/src/p/r',
    ]);
  });

  it("reports a feature's import of its app's composition root, even without a loop back", () => {
    const found = upwardImports([
      imp('apps/a/src/http/emit.ts', 'apps/a/src/a.module.ts'),
      imp('apps/a/src/cli/run.ts', 'apps/a/src/main.ts'),
      imp('apps/a/src/main.ts', 'apps/a/src/a.module.ts'),
    ]);
    expect(found.map(describeUpward)).toEqual([
      "apps/a/src/http/emit.ts: import 'apps/a/src/a.module.ts' imports its app composition root",
      "apps/a/src/cli/run.ts: import 'apps/a/src/main.ts' imports its app composition root",
    ]);
  });

  it('reports a root file in a loop with a folder, not a loop of files inside one folder', () => {
    const found = upwardImports([
      imp('apps/a/src/events.ts', 'apps/a/src/dunning/metrics.ts'),
      imp('apps/a/src/dunning/policy.ts', 'apps/a/src/events.ts'),
      imp('libs/config/src/env.ts', 'libs/config/src/nats.ts'),
      imp('libs/config/src/nats.ts', 'libs/config/src/env.ts'),
    ]);
    expect(found.map((u) => u.path.join(' → '))).toEqual([
      'apps/a/src/events.ts → apps/a/src/dunning → apps/a/src/events.ts',
      'apps/a/src/dunning → apps/a/src/events.ts → apps/a/src/dunning',
    ]);
  });

  it('allows imports that only go down: folders on one another, files of one folder, the root on its features', () => {
    expect(
      upwardImports([
        imp('apps/a/src/dashboard/principal.ts', 'apps/a/src/auth/permission.ts'),
        imp('apps/a/src/auth/guard.ts', 'apps/a/src/http/errors.ts'),
        imp('apps/a/src/auth/guard.ts', 'apps/a/src/auth/permission.ts'),
        imp('apps/a/src/a.module.ts', 'apps/a/src/dashboard/dashboard.module.ts'),
        imp('apps/a/src/dashboard/options.ts', 'apps/a/src/config.ts'),
        imp('apps/a/src/x.ts', 'libs/clock/src/index.ts'),
      ]),
    ).toEqual([]);
  });

  it('reads every kind of import, type-only and re-exports too, and resolves them to files', () => {
    const text = [
      "import { A } from './a';",
      "import type { B } from '../b';",
      "export { C } from '@app/clock';",
      "const d = require('./d');",
      "import('node:fs');",
    ].join('\n');
    expect(specifiersOf('x.ts', text)).toEqual(['./a', '../b', '@app/clock', './d', 'node:fs']);
    expect(resolveImport(ROOT, 'apps/gateway/src/auth/x.ts', '../config')).toBe('apps/gateway/src/config.ts');
    expect(resolveImport(ROOT, 'apps/gateway/src/auth/x.ts', '@app/clock')).toBe('libs/clock/src/index.ts');
    expect(resolveImport(ROOT, 'apps/gateway/src/auth/x.ts', '@nestjs/common')).toBeUndefined();
  });
});
