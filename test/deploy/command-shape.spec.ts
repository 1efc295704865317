import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as ts from 'typescript';
import { typescriptFiles } from '../support/source-files';

const ROOT = join(__dirname, '..', '..');
/** Use cases that still call the idempotency service themselves (payments' purchase: its batched claim). */
const KNOWN_SELF_KEYED = ['apps/payments/src/purchase/purchase.use-case.ts'];
/** Use cases not yet in the shape; the list only shrinks. */
const KNOWN_UNSHAPED: string[] = [];

interface UseCaseClass {
  name: string;
  declared: boolean;
  publicMethods: string[];
}

/** The classes of a file: whether `@UseCase(…)` declares them, and their public methods. */
function classesOf(file: string, text: string): UseCaseClass[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const found: UseCaseClass[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isClassDeclaration(node)) {
      const decorators = ts.getDecorators(node) ?? [];
      const hidden = (m: ts.ClassElement) =>
        (ts.getCombinedModifierFlags(m as ts.Declaration) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) !==
          0 ||
        (m.name !== undefined && ts.isPrivateIdentifier(m.name));
      found.push({
        name: node.name?.text ?? '(anonymous)',
        declared: decorators.some((d) => /^UseCase\(/.test(d.expression.getText(source))),
        publicMethods: node.members
          .filter((m) => ts.isMethodDeclaration(m) && !hidden(m))
          .map((m) => m.name!.getText(source)),
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** What is wrong with one `*.use-case.ts` file, as readable lines (none when it has the shape of a command). */
function problemsOf(file: string, text: string, selfKeyedAllowed = false): string[] {
  const classes = classesOf(file, text);
  const problems: string[] = [];
  const declared = classes.filter((c) => c.declared);
  if (declared.length !== 1) problems.push(`${file}: ${declared.length} @UseCase classes (one verb per file)`);
  for (const c of declared) {
    const extra = c.publicMethods.filter((m) => m !== 'run');
    if (extra.length) problems.push(`${file}: ${c.name} serves more than run (${extra.join(', ')})`);
  }
  if (!selfKeyedAllowed && /\bIdempotencyService\b/.test(text)) {
    problems.push(`${file}: calls IdempotencyService (declare idempotency in @UseCase instead)`);
  }
  return problems;
}

describe('the shape of a command', () => {
  const files = typescriptFiles(join(ROOT, 'apps')).map((path) => ({
    at: relative(ROOT, path),
    text: readFileSync(path, 'utf8'),
  }));
  const useCases = files.filter((f) => f.at.endsWith('.use-case.ts'));

  it('finds the use cases', () => {
    expect(useCases.length).toBeGreaterThan(20);
  });

  it('gives each *.use-case.ts one @UseCase class whose one public verb is run, keyed by the library', () => {
    const shaped = useCases.filter((f) => !KNOWN_UNSHAPED.includes(f.at));
    const problems = shaped.flatMap((f) => problemsOf(f.at, f.text, KNOWN_SELF_KEYED.includes(f.at)));
    expect(problems).toEqual([]);
  });

  it('lists as unshaped only use cases that still are', () => {
    const still = KNOWN_UNSHAPED.filter((at) => useCases.some((f) => f.at === at && problemsOf(at, f.text).length));
    expect(still).toEqual(KNOWN_UNSHAPED);
  });

  it('lists as self-keyed only use cases that still are', () => {
    const still = KNOWN_SELF_KEYED.filter((at) =>
      useCases.some((f) => f.at === at && /IdempotencyService/.test(f.text)),
    );
    expect(still).toEqual(KNOWN_SELF_KEYED);
  });

  it('keeps @UseCase classes in *.use-case.ts files', () => {
    const elsewhere = files.filter((f) => !f.at.endsWith('.use-case.ts') && /@UseCase\(/.test(f.text)).map((f) => f.at);
    expect(elsewhere).toEqual([]);
  });

  it('tells a use case with a second verb, none or two declarations, or its own idempotency calls', () => {
    const two = `@UseCase({ operation: 'a', idempotency: 'none' })\nclass A {\n  run() {}\n  cancel() {}\n  private helper() {}\n}`;
    expect(problemsOf('a.use-case.ts', two)).toEqual(['a.use-case.ts: A serves more than run (cancel)']);
    expect(problemsOf('b.use-case.ts', 'export class B {\n  run() {}\n}')).toEqual([
      'b.use-case.ts: 0 @UseCase classes (one verb per file)',
    ]);
    const keyed = `@UseCase({ operation: 'c', idempotency: 'none' })\nclass C {\n  constructor(private readonly keys: IdempotencyService) {}\n  run() {}\n}`;
    expect(problemsOf('c.use-case.ts', keyed)).toEqual([
      'c.use-case.ts: calls IdempotencyService (declare idempotency in @UseCase instead)',
    ]);
    const fine = `@UseCase({ operation: 'd', idempotency: 'leased' })\nclass D extends LeasedUseCase<X, Y> {\n  protected execute() {}\n}`;
    expect(problemsOf('d.use-case.ts', fine)).toEqual([]);
  });
});
