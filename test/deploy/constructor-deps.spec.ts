import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as ts from 'typescript';
import { typescriptFiles } from '../support/source-files';

/** More than this many injected collaborators is a hub: split what its steps share into their own classes. */
const MOST = 8;
const ROOT = join(__dirname, '..', '..');

/** Every class Nest constructs (decorated @Injectable or @Controller), with its constructor's parameter count. */
function injectables(file: string, text = readFileSync(file, 'utf8')): Array<{ name: string; deps: number }> {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const found: Array<{ name: string; deps: number }> = [];
  const visit = (node: ts.Node): void => {
    if (ts.isClassDeclaration(node)) {
      const decorators = ts.getDecorators(node) ?? [];
      const nest = decorators.some((d) => /^(Injectable|Controller)\b/.test(d.expression.getText(source)));
      const ctor = node.members.find(ts.isConstructorDeclaration);
      if (nest) found.push({ name: node.name?.text ?? '(anonymous)', deps: ctor?.parameters.length ?? 0 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('constructor injection', () => {
  const all = ['apps', 'libs']
    .flatMap((d) => typescriptFiles(join(ROOT, d)))
    .flatMap((file) => injectables(file).map((c) => ({ ...c, at: relative(ROOT, file) })));

  it('finds the services and controllers', () => {
    expect(all.length).toBeGreaterThan(100);
    expect(all).toContainEqual(expect.objectContaining({ name: 'PurchaseUseCase' }));
  });

  it(`gives no class more than ${MOST} injected dependencies`, () => {
    const hubs = all.filter((c) => c.deps > MOST).map((c) => `${c.at}: ${c.name} takes ${c.deps}`);
    expect(hubs).toEqual([]);
  });

  it('counts what a constructor takes, decorated parameters too', () => {
    const params = Array.from({ length: 9 }, (_, i) => `@Inject(T${i}) private readonly a${i}: A`).join(', ');
    const text = `@Injectable()\nexport class Hub {\n  constructor(${params}) {}\n}\nclass Plain {\n  constructor(a: A) {}\n}\n`;
    expect(injectables('hub.ts', text)).toEqual([{ name: 'Hub', deps: 9 }]);
  });
});
