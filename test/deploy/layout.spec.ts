import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { typescriptFiles } from '../support/source-files';

const ROOT = join(__dirname, '..', '..');
const sources = (...dirs: string[]) =>
  dirs.flatMap((d) => typescriptFiles(join(ROOT, d), true).map((f) => relative(ROOT, f)));
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** A file that declares a TypeORM migration: a class implementing MigrationInterface. */
const declaresMigration = (text: string) => /\bclass\s+\w+\s+implements\s+MigrationInterface\b/.test(text);

/** Where a migration may live: its app's migrations folder, or a library that exports it for apps to list. */
const MIGRATION_HOME = /^(apps\/[a-z-]+\/src\/migrations\/[^/]+\.ts|libs\/[a-z-]+\/src\/.+\.ts)$/;

/** The folders whose files speak to the next engineer: code, tests, scripts, manifests. */
const CODE_FOLDERS = ['apps', 'libs', 'test', 'scripts', 'bench', 'clients', 'k8s', 'docker'];

/**
 * A mention of the product documents that are not in this repository (the spec, the decisions and the style
 * guide): a reader of the code cannot follow it. Comments state the rule, or point at a file of this repository
 * (docs/…).
 */
const OUTSIDE_DOCUMENT = /\b(SPEC|DECISIONS)\b|\bSTYLE(\.md)? §/;

/** Each line of `text` that mentions a document outside the repository, as `file:line: text`. */
const outsideMentions = (file: string, text: string): string[] =>
  text.split('\n').flatMap((line, i) => (OUTSIDE_DOCUMENT.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : []));

describe('source layout', () => {
  it('points no comment at documents outside the repository', () => {
    const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', ...CODE_FOLDERS], {
      cwd: ROOT,
      encoding: 'utf8',
    })
      .split('\n')
      // This file names the documents in order to find them.
      .filter((f) => /\.(ts|js|mjs|cjs|ya?ml|sql|sh)$|Dockerfile$/.test(f) && f !== relative(ROOT, __filename));
    expect(files.length).toBeGreaterThan(500);
    expect(files.flatMap((f) => outsideMentions(f, read(f)))).toEqual([]);
  });

  it('recognises such a mention, and not a word that only contains one', () => {
    const mentions = [
      '// the rule of DECISIONS §3',
      '/** SPEC "Payment". */',
      "reason: 'SUSPECTED_FRAUD'",
      '(STYLE §9)',
    ];
    expect(outsideMentions('x.ts', mentions.join('\n'))).toEqual([
      'x.ts:1: // the rule of DECISIONS §3',
      'x.ts:2: /** SPEC "Payment". */',
      'x.ts:4: (STYLE §9)',
    ]);
  });

  it('defines the shared test helpers once, in test/support/', () => {
    const shared = new Set(
      ['wait', 'db', 'ports', 'amounts'].flatMap((m) =>
        [...read(`test/support/${m}.ts`).matchAll(/^export (?:async )?(?:function|const) (\w+)/gm)].map((x) => x[1]),
      ),
    );
    expect([...shared]).toEqual(
      expect.arrayContaining(['sleep', 'until', 'waitUntil', 'queryRows', 'holdTable', 'usd']),
    );
    /** A function of that name defined in a file: a copy of the helper. */
    const definesHelper = (text: string, name: string) =>
      new RegExp(
        `\\bfunction ${name}\\s*[(<]|\\b(const|let) ${name}\\s*=\\s*(async\\s*)?(\\(|<|function\\b|\\w+\\s*=>)`,
      ).test(text);
    const copies = sources('test')
      .filter((f) => !f.startsWith('test/support/') && f !== relative(ROOT, __filename))
      .flatMap((f) => [...shared].filter((n) => definesHelper(read(f), n)).map((n) => `${f}: ${n}`));
    expect(copies).toEqual([]);
    expect(definesHelper('const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));', 'sleep')).toBe(true);
    expect(definesHelper('async function until<T>(fn: () => T) {}', 'until')).toBe(true);
    expect(definesHelper('const until = new Date().toISOString();', 'until')).toBe(false);
  });

  it('keeps every app migration in apps/<app>/src/migrations/', () => {
    const migrations = sources('apps', 'libs').filter((f) => declaresMigration(read(f)));
    expect(migrations.length).toBeGreaterThan(20);
    expect(migrations.filter((f) => !MIGRATION_HOME.test(f))).toEqual([]);
  });

  it('recognises a migration beside a feature as misplaced', () => {
    const text =
      "import { MigrationInterface } from 'typeorm';\nexport class Nonces1 implements MigrationInterface {}\n";
    expect(declaresMigration(text)).toBe(true);
    expect(MIGRATION_HOME.test('apps/payments/src/nonce/nonce.migration.ts')).toBe(false);
    expect(MIGRATION_HOME.test('apps/payments/src/migrations/1764100000001-card-nonces.ts')).toBe(true);
  });
});
