import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as ts from 'typescript';
import { typescriptFiles } from '../support/source-files';

const ROOT = join(__dirname, '..', '..');

/** The one place a status is assigned: StateMachine.apply, after the table allowed the move. */
const APPLY = 'libs/state-machine/src/state-machine.ts';

/** Calls that write the object they are given to a row (TypeORM's and the repositories' own). */
const WRITES = /^(insert|save|update|upsert|create|merge|preload|set|values|reserve|record)\w*$/i;

/** A repository: the SQL of its aggregate, where a guarded UPDATE makes a move the caller's table decided. */
const isRepository = (file: string) => file.endsWith('.repository.ts');

/** The SET clause of an UPDATE (up to its WHERE, FROM or RETURNING), and a status assigned in it. */
const SQL_SET = /\bUPDATE\s+\w+(?:\s+\w+)?\s+SET\b(.*?)(?:\bWHERE\b|\bFROM\b|\bRETURNING\b|;|$)/is;
const SET_STATUS = /(?:^|[\s,])status\s*=\s*(\S+)/i;
/** `INSERT INTO t (… status …)`. */
const SQL_INSERT_STATUS = /\bINSERT\s+INTO\s+\w+\s*\([^)]*\bstatus\b/is;

const isStatusName = (name: ts.PropertyName | ts.MemberName | undefined, source: ts.SourceFile): boolean =>
  !!name &&
  (ts.isIdentifier(name) || ts.isStringLiteral(name)) &&
  name.getText(source).replace(/['"]/g, '') === 'status';

/** `X_MACHINE.spec.initial`: a row created in its table's initial state. */
const isInitialState = (node: ts.Expression, source: ts.SourceFile): boolean =>
  /^\w+_MACHINE\.spec\.initial$/.test(node.getText(source));

/** The name of the function or method a call invokes. */
function calleeName(call: ts.CallExpression): string | undefined {
  const callee = call.expression;
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  return undefined;
}

/** Whether an object literal ends up in a row: given to a write, to Object.assign, or typed as an entity. */
function writtenToRow(literal: ts.ObjectLiteralExpression, entities: ReadonlySet<string>): boolean {
  let node: ts.Node = literal;
  // Through spreads, parentheses and `as`/`satisfies` to the expression that uses the object.
  for (;;) {
    const parent: ts.Node = node.parent;
    if (ts.isParenthesizedExpression(parent) || ts.isSpreadAssignment(parent)) node = parent;
    else if (ts.isObjectLiteralExpression(parent)) node = parent;
    else if (ts.isAsExpression(parent) || ts.isSatisfiesExpression(parent)) {
      if (entities.has(parent.type.getText())) return true;
      node = parent;
    } else break;
  }
  const parent = node.parent;
  if (ts.isCallExpression(parent) && parent.arguments.includes(node as ts.Expression)) {
    const name = calleeName(parent);
    if (name === 'assign' && parent.expression.getText().startsWith('Object.')) return true;
    return !!name && WRITES.test(name);
  }
  if (ts.isVariableDeclaration(parent) && parent.type) return entities.has(parent.type.getText());
  return false;
}

/** The SQL texts of a string or template literal. */
function sqlOf(node: ts.Node): string | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node))
    return [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join(' ');
  return undefined;
}

/**
 * Every place of `text` that writes a status column other than through its transition table, as
 * `file:line: code`:
 * - an assignment to a `status` property (only StateMachine.apply assigns one);
 * - a `status` in an object that is written to a row (Object.assign, insert/save/update…, typed as an entity),
 *   unless it is the table's initial state (`X_MACHINE.spec.initial`);
 * - SQL that sets or inserts a status outside a repository, and, in a repository, a SET of a status that is not
 *   a parameter (the caller passes the state its table chose).
 */
export function statusWrites(file: string, text: string, entities: ReadonlySet<string>): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const flag = (node: ts.Node) => {
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
    found.push(`${file}:${line}: ${node.getText(source).split('\n')[0].trim()}`);
  };
  const visit = (node: ts.Node): void => {
    if (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind >= ts.SyntaxKind.FirstAssignment &&
      node.operatorToken.kind <= ts.SyntaxKind.LastAssignment &&
      file !== APPLY
    ) {
      const target = node.left;
      if (ts.isPropertyAccessExpression(target) && isStatusName(target.name, source)) flag(node);
      if (
        ts.isElementAccessExpression(target) &&
        /^['"`]status['"`]$/.test(target.argumentExpression.getText(source))
      ) {
        flag(node);
      }
    }
    if (ts.isObjectLiteralExpression(node) && writtenToRow(node, entities)) {
      for (const p of node.properties) {
        if (ts.isShorthandPropertyAssignment(p) && p.name.text === 'status') flag(p);
        if (ts.isPropertyAssignment(p) && isStatusName(p.name, source) && !isInitialState(p.initializer, source)) {
          flag(p);
        }
      }
    }
    const sql = sqlOf(node);
    if (sql !== undefined) {
      const set = SET_STATUS.exec(SQL_SET.exec(sql)?.[1] ?? '');
      // In a repository: a parameter, or a column of a batch of parameters (`unnest($1::text[], …) AS i(…)`).
      const fromCaller = (v: string) => /^\$\d+/.test(v) || (/^\w+\.\w+/.test(v) && /\bunnest\(\s*\$\d+/i.test(sql));
      if (set && (!isRepository(file) || !fromCaller(set[1]))) flag(node);
      else if (!isRepository(file) && SQL_INSERT_STATUS.test(sql)) flag(node);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The classes TypeORM maps to tables (decorated @Entity). */
function entityClasses(files: Array<{ file: string; text: string }>): Set<string> {
  return new Set(
    files.flatMap(({ text }) => [...text.matchAll(/@Entity\([^)]*\)\s*export class (\w+)/g)].map((m) => m[1])),
  );
}

describe('status columns', () => {
  const files = ['apps', 'libs']
    .flatMap((d) => typescriptFiles(join(ROOT, d)))
    .map((f) => relative(ROOT, f))
    // Migrations write what the tables had when they ran.
    .filter((f) => !/\/migrations\//.test(f))
    .map((file) => ({ file, text: readFileSync(join(ROOT, file), 'utf8') }));
  const entities = entityClasses(files);

  it('finds the sources and their entities', () => {
    expect(files.length).toBeGreaterThan(300);
    expect([...entities]).toEqual(
      expect.arrayContaining(['PaymentEntity', 'PaymentLinkEntity', 'LinkUseEntity', 'PaymentSession']),
    );
  });

  it('are written only through their transition tables', () => {
    expect(files.flatMap(({ file, text }) => statusWrites(file, text, entities))).toEqual([]);
  });

  it('recognises the ways a status can be written by hand, and lets the tables’ ways through', () => {
    const entity = new Set(['LinkUseEntity']);
    const code = [
      'use.status = "released";',
      "use['status'] = to;",
      "Object.assign(use, { paymentId, status: 'confirmed' });",
      "await this.sessions.insert(m, { id, status: 'pending' });",
      'await manager.update(LinkUseEntity, { id }, { ...fields, status });',
      "const row = { id, status: 'reserved' } satisfies LinkUseEntity;",
      "await m.query(`UPDATE payment_sessions SET status = 'expired' WHERE id = $1`, [id]);",
      "await m.query('INSERT INTO payment_link_uses (id, status) VALUES ($1, $2)', [id, s]);",
      // The tables' ways, and what only reads a status:
      'Object.assign(new LinkUseEntity(), { id, status: LINK_USE_MACHINE.spec.initial });',
      'LINK_USE_MACHINE.apply(use, "confirm");',
      'return { id: p.id, status: apiStatus(p.status) };',
      "repo.findOneBy({ id, status: 'reserved' });",
      "if (use.status === 'reserved') return;",
      "await m.query(`SELECT status FROM payments WHERE status = 'authorized'`);",
      "await m.query(`UPDATE t SET due_at = now() WHERE id = $1 AND status = 'pending'`, [id]);",
    ].join('\n');
    expect(statusWrites('apps/x/src/use.service.ts', code, entity).map((l) => l.split(':')[1])).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
      '7',
      '8',
    ]);
    // A repository sets a status its caller's table chose, as a parameter; never one it picks itself.
    const repository = [
      'await m.query(`UPDATE webhook_deliveries SET status = $2 WHERE id = $1`, [id, to]);',
      "await m.query(`UPDATE webhook_deliveries SET status = 'dead' WHERE id = $1`, [id]);",
      "await m.query(`UPDATE t SET claimed_until = NULL, status = 'dead' WHERE id = $1`, [id]);",
      'await m.query(`WITH i AS (SELECT * FROM unnest($1::uuid[], $2::text[]) AS i(id, s)) UPDATE t SET status = i.s FROM i WHERE t.id = i.id`, [ids, to]);',
      'await m.query(`UPDATE t SET status = o.s FROM other o WHERE t.id = o.id`, []);',
    ].join('\n');
    expect(statusWrites('apps/x/src/x.repository.ts', repository, entity).map((l) => l.split(':')[1])).toEqual([
      '2',
      '3',
      '5',
    ]);
  });
});
