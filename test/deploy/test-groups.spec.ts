import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const { groups, groupRuleViolations } = require('../support/groups') as {
  groups(root?: string): { folder: string; file: string; cases: string[] }[];
  groupRuleViolations(root?: string): string[];
};
const GroupingSequencer = require('../support/sequencer') as new () => {
  sort(tests: FakeTest[]): FakeTest[];
  time(test: FakeTest): number | undefined;
  hasFailed(test: FakeTest): boolean;
};

interface FakeTest {
  path: string;
  duration?: number;
  context: { hasteFS: { getSize(file: string): number | null } };
}

const ROOT = join(__dirname, '..', '..');

describe('test groups (test/support/groups.js)', () => {
  let root: string;
  const put = (file: string, text = "it('works', () => expect(1).toBe(1));\n") => {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  };
  const GROUP = "import { runGroup } from '../support/run-group';\nrunGroup(__dirname);\n";

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'test-groups-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('this repository follows the rule, and every group has cases', () => {
    expect(groupRuleViolations()).toEqual([]);
    const found = groups();
    expect(found.length).toBeGreaterThan(0);
    for (const g of found) expect(g.cases.every((c) => c.startsWith(`${g.folder}/`))).toBe(true);
  });

  it("finds a folder's cases by name, sorted, and leaves its *.e2e-spec.ts alone", () => {
    put('test/a/group.e2e-spec.ts', GROUP);
    put('test/a/zeta.e2e-case.ts');
    put('test/a/alpha.e2e-case.ts');
    put('test/a/alone.e2e-spec.ts');
    put('test/a/helpers.ts', 'export const x = 1;\n');
    expect(groups(root)).toEqual([
      {
        folder: 'test/a',
        file: 'test/a/group.e2e-spec.ts',
        cases: ['test/a/alpha.e2e-case.ts', 'test/a/zeta.e2e-case.ts'],
      },
    ]);
    expect(groupRuleViolations(root)).toEqual([]);
  });

  it('refuses a case in a folder without a group file: it would never run', () => {
    put('test/a/group.e2e-spec.ts', GROUP);
    put('test/a/one.e2e-case.ts');
    put('test/b/stray.e2e-case.ts');
    expect(groupRuleViolations(root)).toEqual([
      'test/b/stray.e2e-case.ts: no group.e2e-spec.ts in its folder, so it never runs',
    ]);
  });

  it('refuses a group file without cases, or one that does not run its folder', () => {
    put('test/a/group.e2e-spec.ts', GROUP);
    put('test/b/group.e2e-spec.ts', "import './one.e2e-case';\n");
    put('test/b/one.e2e-case.ts');
    expect(groupRuleViolations(root)).toEqual([
      'test/a/group.e2e-spec.ts: no *.e2e-case.ts beside it',
      'test/b/group.e2e-spec.ts: does not call runGroup(__dirname)',
    ]);
  });
});

describe('the sequencer (test/support/sequencer.js) only orders', () => {
  class Untimed extends GroupingSequencer {
    override time(): undefined {
      return undefined;
    }
    override hasFailed(): boolean {
      return false;
    }
  }
  const sizes = new Map<string, number>();
  const fake = (path: string): FakeTest => ({
    path: join(ROOT, path),
    context: { hasteFS: { getSize: (f) => sizes.get(f) ?? 0 } },
  });

  it('keeps every test file, and starts an untimed group by the size of its cases together', () => {
    const group = groups().find((g) => g.cases.length > 1)!;
    for (const c of group.cases) sizes.set(join(ROOT, c), 1_000);
    sizes.set(join(ROOT, 'test/big.e2e-spec.ts'), 1_500);
    sizes.set(join(ROOT, 'test/small.e2e-spec.ts'), 10);
    const tests = [fake('test/small.e2e-spec.ts'), fake(group.file), fake('test/big.e2e-spec.ts')];
    const sorted = new Untimed().sort(tests).map((t) => t.path);
    expect(sorted).toEqual([
      join(ROOT, group.file),
      join(ROOT, 'test/big.e2e-spec.ts'),
      join(ROOT, 'test/small.e2e-spec.ts'),
    ]);
  });
});
