#!/usr/bin/env node
'use strict';
/**
 * Where the services query their databases, and in which style. Reads every TypeScript source under apps/ and
 * libs/ (unit specs left out) and finds:
 *
 * - `raw`: a `.query(…)` call (SQL text handed to TypeORM or pg);
 * - `typeorm`: a query builder (`createQueryBuilder`), a TypeORM repository (`getRepository`,
 *   `@InjectRepository`), or a CRUD call (`find`, `save`, `update`, …) on an EntityManager, DataSource or
 *   TypeORM Repository;
 * - `named`: a named statement (`statement`) or an entity helper of libs/database (`entityInsert`, `entitySelect`…);
 * - `sql`: SQL text in a string (`SELECT … FROM`, `INSERT INTO`, `UPDATE … SET`, `DELETE FROM`).
 *
 * test/deploy/sql-in-repositories.spec.ts holds the rule: outside `*.repository.ts` (and libs/database, the
 * migrations and the migrate app) none of these; inside, named statements only.
 *
 *   node scripts/query-styles.js          # per style and file: counts, the files that mix styles
 *   node scripts/query-styles.js --list   # every finding, file:line
 */
const { readdirSync, readFileSync } = require('node:fs');
const { join, relative } = require('node:path');
const ts = require('typescript');

const ROOT = join(__dirname, '..');

const CRUD = new Set(
  [
    'find findOne findOneBy findBy findOneOrFail findOneByOrFail findAndCount findAndCountBy count countBy',
    'exists existsBy exist save insert update upsert delete remove softDelete restore increment decrement',
    'preload sum average minimum maximum clear',
  ]
    .join(' ')
    .split(' '),
);
const NAMED = new Set([
  'statement',
  'entityInsert',
  'entityInsertMany',
  'entityInsertGathered',
  'entityUpdateGathered',
  'entityUpdateMany',
  'entitySelect',
]);
/** A declared type that is TypeORM's way in: the manager, the data source, a TypeORM Repository. */
const TYPEORM_TYPE = /\b(EntityManager|DataSource|Repository<)/;
/** SQL statements as the code writes them (keywords in capitals). */
const SQL =
  /\bSELECT\s[\s\S]*\bFROM\s|\bINSERT INTO\s|\bUPDATE\s+\w+\s+(\w+\s+)?SET\s|\bDELETE FROM\s|^\s*WITH\s+\w+\s+AS\s*\(/;

/** Where SQL may live outside repositories: the database library itself, migrations, the migrate app. */
function exempt(path) {
  return (
    path.startsWith('libs/database/') ||
    path.startsWith('apps/migrate/') ||
    path.includes('/migrations/') ||
    path.endsWith('.migration.ts')
  );
}

const isRepository = (path) => path.endsWith('.repository.ts');

/** Names declared with a TypeORM type (parameters, properties, variables), and `manager`. */
function typeormNames(source) {
  const names = new Set(['manager']);
  const visit = (node) => {
    if (
      (ts.isParameter(node) || ts.isPropertyDeclaration(node) || ts.isVariableDeclaration(node)) &&
      ts.isIdentifier(node.name)
    ) {
      const typed = node.type && TYPEORM_TYPE.test(node.type.getText(source));
      const injected = (ts.canHaveDecorators(node) ? ts.getDecorators(node) || [] : []).some((d) =>
        /^InjectRepository\b/.test(d.expression.getText(source)),
      );
      if (typed || injected) names.add(node.name.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return names;
}

/** The name an expression stands for: `db` for `db`, `this.db`, `x.db`; `getRepository` for `m.getRepository(X)`. */
function nameOf(e) {
  while (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isNonNullExpression(e)) e = e.expression;
  if (ts.isIdentifier(e)) return e.text;
  if (ts.isPropertyAccessExpression(e)) return e.name.text;
  if (ts.isCallExpression(e)) return nameOf(e.expression);
  return undefined;
}

/** Every query (and SQL text) in one file: `{ line, style, what }`. */
function findQueries(path, text) {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.ES2022, true);
  const typeorm = typeormNames(source);
  const found = [];
  const line = (node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const visit = (node) => {
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const method = ts.isPropertyAccessExpression(callee) ? callee.name.text : undefined;
      const fn = ts.isIdentifier(callee) ? callee.text : method;
      if (method === 'query') found.push({ line: line(node), style: 'raw', what: '.query()' });
      else if (fn === 'createQueryBuilder' || fn === 'getRepository' || fn === 'withRepository') {
        found.push({ line: line(node), style: 'typeorm', what: `${fn}()` });
      } else if (method && CRUD.has(method)) {
        const on = nameOf(callee.expression);
        if (on && (typeorm.has(on) || on === 'getRepository')) {
          found.push({ line: line(node), style: 'typeorm', what: `${on}.${method}()` });
        }
      } else if (fn && NAMED.has(fn)) found.push({ line: line(node), style: 'named', what: `${fn}()` });
    }
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node)) {
      if (SQL.test(node.getText(source))) found.push({ line: line(node), style: 'sql', what: 'SQL text' });
      if (ts.isTemplateExpression(node)) {
        // The spans' expressions may hold more SQL; the literal text itself was checked whole.
        node.templateSpans.forEach((s) => visit(s.expression));
        return;
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every TypeScript source under apps/ and libs/, unit specs left out, relative to the repository root. */
function sourceFiles(dir = ROOT, sub = ['apps', 'libs']) {
  return sub.flatMap((d) => walk(join(dir, d))).map((f) => relative(dir, f));
}
function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : walk(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.spec.ts') ? [path] : [];
  });
}

/** The query styles of each file that queries (SQL text alone is no style), exempt places left out. */
function styles(root = ROOT) {
  const byFile = new Map();
  for (const path of sourceFiles(root)) {
    if (exempt(path)) continue;
    const found = findQueries(path, readFileSync(join(root, path), 'utf8'));
    if (found.length) byFile.set(path, found);
  }
  return byFile;
}

function report(list) {
  const byFile = styles();
  const count = { raw: 0, typeorm: 0, named: 0, sql: 0 };
  const files = { raw: 0, typeorm: 0, named: 0, sql: 0 };
  const mixing = [];
  const outside = [];
  for (const [path, found] of byFile) {
    const kinds = new Set(found.map((f) => f.style));
    for (const f of found) count[f.style]++;
    for (const k of kinds) files[k]++;
    const used = ['raw', 'typeorm', 'named'].filter((k) => kinds.has(k));
    if (used.length > 1) mixing.push(`${path} (${used.join(' + ')})`);
    if (!isRepository(path)) outside.push(`${path} (${[...kinds].join(', ')})`);
    if (list) for (const f of found) console.log(`${path}:${f.line} ${f.style} ${f.what}`);
  }
  if (list) return;
  const used = ['raw', 'typeorm', 'named'].filter((k) => count[k]);
  console.log(`query styles in use: ${used.length} (${used.join(', ')})`);
  for (const k of Object.keys(count)) console.log(`  ${k}: ${count[k]} in ${files[k]} files`);
  console.log(`files mixing styles: ${mixing.length}`);
  for (const m of mixing) console.log(`  ${m}`);
  console.log(`files outside *.repository.ts that query or hold SQL: ${outside.length}`);
  for (const o of outside) console.log(`  ${o}`);
}

module.exports = { findQueries, styles, exempt, isRepository };

if (require.main === module) report(process.argv.includes('--list'));
