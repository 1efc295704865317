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

describe('source layout', () => {
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
