import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as ts from 'typescript';
import { typescriptFiles } from '../support/source-files';

const ROOT = join(__dirname, '..', '..');

/** The one file that reaches past pg's and TypeORM's public API (pinned versions, its own spec). */
const INTERNALS = 'libs/database/src/pipelined/driver-internals.ts';
/** Where a QueryRunner is created: the transaction helper, and the migrations' own connection. */
const RUNNERS = ['libs/database/src/pipelined/pipelined-transaction.ts', 'libs/database/src/connection/migrate.ts'];
/** The types whose `transaction` method opens a TypeORM transaction beside inTransaction. */
const TYPEORM = /\b(DataSource|EntityManager)\b/;

interface Finding {
  at: string;
  what: string;
}

/** Names declared in the file (parameters, properties, variables) with a DataSource or EntityManager type. */
function typeormNames(source: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (
      (ts.isParameter(node) || ts.isPropertyDeclaration(node) || ts.isVariableDeclaration(node)) &&
      node.type &&
      TYPEORM.test(node.type.getText(source)) &&
      ts.isIdentifier(node.name)
    ) {
      names.add(node.name.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return names;
}

/** The variable or `this.` property an expression names, if it does (`db` for `this.db` and `db`). */
function nameOf(e: ts.Expression): string | undefined {
  if (ts.isIdentifier(e)) return e.text;
  if (ts.isPropertyAccessExpression(e) && e.expression.kind === ts.SyntaxKind.ThisKeyword) return e.name.text;
  // `x.manager` is a DataSource's manager.
  if (ts.isPropertyAccessExpression(e) && e.name.text === 'manager') return 'manager';
  return undefined;
}

/** `x` of `(x as T)`, `(x)`, `x!`. */
function unwrapped(e: ts.Expression): ts.Expression {
  while (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isNonNullExpression(e)) e = e.expression;
  return e;
}

function findings(file: string, text = readFileSync(file, 'utf8')): Finding[] {
  const at = relative(ROOT, file);
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const typeorm = typeormNames(source);
  typeorm.add('manager');
  const found: Finding[] = [];
  const line = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const method = node.expression.name.text;
      const on = nameOf(node.expression.expression);
      if (method === 'transaction' && on && typeorm.has(on)) {
        found.push({ at: `${at}:${line(node)}`, what: `${node.expression.getText(source)}(): use inTransaction` });
      }
      if ((method === 'createQueryRunner' || method === 'startTransaction') && !RUNNERS.includes(at)) {
        found.push({ at: `${at}:${line(node)}`, what: `${method}(): use inTransaction` });
      }
    }
    if (at !== INTERNALS && ts.isPropertyAccessExpression(node)) {
      const name = node.name.text;
      const written =
        ts.isBinaryExpression(node.parent) &&
        node.parent.left === node &&
        node.parent.operatorToken.kind === ts.SyntaxKind.EqualsToken;
      const of = unwrapped(node.expression).getText(source);
      if (name === 'master' && /\.driver$/.test(of)) {
        found.push({ at: `${at}:${line(node)}`, what: 'driver.master: use poolOf (driver-internals.ts)' });
      }
      if (name === 'isTransactionActive' && written) {
        found.push({ at: `${at}:${line(node)}`, what: 'isTransactionActive written: see driver-internals.ts' });
      }
      if ((name === 'stream' && /\.connection$/.test(of)) || name === '_queryQueue') {
        found.push({ at: `${at}:${line(node)}`, what: `pg internals (${name}): see driver-internals.ts` });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the way to the database', () => {
  const files = ['apps', 'libs'].flatMap((d) => typescriptFiles(join(ROOT, d)));

  it('opens every transaction with inTransaction, and reaches pg and TypeORM internals only in one file', () => {
    expect(files.flatMap((f) => findings(f))).toEqual([]);
  });

  it('catches the spellings it forbids', () => {
    const sample = join(ROOT, 'apps/example/src/sample.ts');
    const text = [
      "import { DataSource, EntityManager } from 'typeorm';",
      'class Sample {',
      '  constructor(private readonly db: DataSource) {}',
      '  a(m: EntityManager) { return Promise.all([this.db.transaction(async () => 1), m.transaction(async () => 2)]); }',
      '  b() { return this.db.manager.transaction(async () => 3); }',
      '  c() { return this.db.createQueryRunner(); }',
      '  d() { return (this.db.driver as any).master; }',
      '  e(r: { isTransactionActive: boolean }) { r.isTransactionActive = true; }',
      '}',
    ].join('\n');
    expect(findings(sample, text).map((f) => f.what.split(':')[0])).toEqual([
      'this.db.transaction()',
      'm.transaction()',
      'this.db.manager.transaction()',
      'createQueryRunner()',
      'driver.master',
      'isTransactionActive written',
    ]);
  });
});
