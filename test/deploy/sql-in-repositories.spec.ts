import { readFileSync } from 'node:fs';
import { join } from 'node:path';

interface Found {
  line: number;
  style: 'raw' | 'typeorm' | 'named' | 'sql';
  what: string;
}
const { findQueries, exempt, isRepository } = require('../../scripts/query-styles.js') as {
  findQueries: (path: string, text: string) => Found[];
  exempt: (path: string) => boolean;
  isRepository: (path: string) => boolean;
};
import { typescriptFiles } from '../support/source-files';

const ROOT = join(__dirname, '..', '..');

/**
 * Repositories that still query in another style than named statements and the entity helpers of
 * libs/database, with how many such calls each has. The list only shrinks: a file converted must leave it
 * (the test says so), and no file may join it.
 */
const NOT_YET_ONE_STYLE: Record<string, number> = {};

const relative = (file: string): string =>
  file
    .slice(ROOT.length + 1)
    .split('\\')
    .join('/');

function findingsOf(file: string, text = readFileSync(file, 'utf8')): Array<Found & { at: string }> {
  const path = relative(file);
  return findQueries(path, text).map((f) => ({ ...f, at: `${path}:${f.line}` }));
}

describe('SQL lives in repositories, written one way', () => {
  const files = ['apps', 'libs'].flatMap((d) => typescriptFiles(join(ROOT, d))).filter((f) => !exempt(relative(f)));

  it('finds the repositories and their statements', () => {
    const repositories = files.filter((f) => isRepository(relative(f)));
    expect(repositories.length).toBeGreaterThan(30);
    expect(repositories.flatMap((f) => findingsOf(f)).filter((f) => f.style === 'named').length).toBeGreaterThan(100);
  });

  it('has no query and no SQL text outside *.repository.ts', () => {
    const outside = files
      .filter((f) => !isRepository(relative(f)))
      .flatMap((f) => findingsOf(f))
      .map((f) => `${f.at} ${f.what}: move it into a *.repository.ts`);
    expect(outside).toEqual([]);
  });

  it('queries through named statements and the entity helpers of libs/database in every repository', () => {
    const counts = new Map<string, { n: number; first: string }>();
    for (const file of files.filter((f) => isRepository(relative(f)))) {
      for (const f of findingsOf(file).filter((x) => x.style === 'raw' || x.style === 'typeorm')) {
        const path = relative(file);
        const seen = counts.get(path);
        counts.set(path, { n: (seen?.n ?? 0) + 1, first: seen?.first ?? `${f.at} ${f.what}` });
      }
    }
    const problems: string[] = [];
    for (const [path, { n, first }] of counts) {
      const allowed = NOT_YET_ONE_STYLE[path];
      if (allowed === undefined) problems.push(`${first}: use a named statement (statement/runStatement, entity*)`);
      else if (n > allowed) problems.push(`${path}: ${n} calls in other styles, ${allowed} allowed (${first})`);
    }
    for (const [path, allowed] of Object.entries(NOT_YET_ONE_STYLE)) {
      const n = counts.get(path)?.n ?? 0;
      if (n < allowed) problems.push(`${path}: now ${n} calls in other styles: lower NOT_YET_ONE_STYLE to ${n}`);
    }
    expect(problems).toEqual([]);
  });

  it('catches the spellings it forbids, naming file and line', () => {
    const text = [
      "import { DataSource, EntityManager, Repository } from 'typeorm';",
      'class Sample {',
      '  constructor(private readonly db: DataSource, @InjectRepository(X) private readonly xs: Repository<X>) {}',
      "  a() { return this.db.query('SELECT 1'); }",
      "  b(m: EntityManager) { return m.createQueryBuilder(X, 'x').getMany(); }",
      '  c(m: EntityManager) { return m.findOne(X, { where: {} }); }',
      '  d() { return this.xs.save({}); }',
      '  e() { return this.db.getRepository(X).find(); }',
      "  f() { return run(this.db, 'UPDATE x SET a = 1 WHERE id = $1'); }",
      "  g() { return statement('x_all', 'DELETE FROM x'); }",
      '  h(list: number[]) { return list.find((n) => n > 1); }',
      "  i(s: Set<string>) { s.delete('a'); return 'Select a plan, then update the subscription'; }",
      '}',
    ].join('\n');
    expect(findQueries('apps/example/src/sample.ts', text).map((f) => `${f.line} ${f.style} ${f.what}`)).toEqual([
      '4 raw .query()',
      '5 typeorm createQueryBuilder()',
      '6 typeorm m.findOne()',
      '7 typeorm xs.save()',
      '8 typeorm getRepository.find()',
      '8 typeorm getRepository()',
      '9 sql SQL text',
      '10 named statement()',
      '10 sql SQL text',
    ]);
  });

  it('leaves libs/database, the migrations and the migrate app alone', () => {
    expect(exempt('libs/database/src/pipelined/prepared.ts')).toBe(true);
    expect(exempt('apps/payments/src/migrations/1766100000000-acquirer-attempts.ts')).toBe(true);
    expect(exempt('libs/outbox/src/outbox.migration.ts')).toBe(true);
    expect(exempt('apps/migrate/src/webhook-data.ts')).toBe(true);
    expect(exempt('apps/payments/src/payment/payment.repository.ts')).toBe(false);
  });
});
