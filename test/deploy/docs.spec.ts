import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { codeBlocks, headingAnchors, links } from '../support/markdown';

const ROOT = resolve(__dirname, '../..');
const DOCUMENTS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
  'k8s/README.md',
  'clients/typescript/README.md',
  'clients/browser/README.md',
  'clients/cli/README.md',
];
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** What is wrong with one relative link of `from` (a repository path), or undefined when it resolves. */
function brokenLink(from: string, target: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined; // http:, https:, mailto:
  const [path, anchor] = target.split('#', 2);
  const file = path === '' ? join(ROOT, from) : resolve(dirname(join(ROOT, from)), decodeURIComponent(path));
  if (!file.startsWith(ROOT) || !existsSync(file)) return `${target}: no such file`;
  if (anchor === undefined) return undefined;
  if (statSync(file).isDirectory() || !file.endsWith('.md')) return `${target}: an anchor into a non-Markdown file`;
  const anchors = headingAnchors(readFileSync(file, 'utf8'));
  return anchors.has(anchor) ? undefined : `${target}: no heading "#${anchor}" in ${relative(ROOT, file)}`;
}

describe('README and docs/', () => {
  it.each(DOCUMENTS)('every relative link of %s resolves, anchors included', (doc) => {
    const found = links(read(doc));
    const broken = found.flatMap(({ line, target }) => {
      const why = brokenLink(doc, target);
      return why ? [`${doc}:${line} ${why}`] : [];
    });
    expect(broken).toEqual([]);
  });

  it.each(DOCUMENTS)('every json code block of %s parses', (doc) => {
    const bad = codeBlocks(read(doc))
      .filter((b) => b.lang === 'json')
      .flatMap((b) => {
        try {
          JSON.parse(b.text);
          return [];
        } catch (e) {
          return [`${doc}:${b.line} ${(e as Error).message}`];
        }
      });
    expect(bad).toEqual([]);
  });

  it('the README stays a front door: at most 250 lines, the quickstart marked for its test', () => {
    const readme = read('README.md');
    expect(readme.split('\n').length).toBeLessThanOrEqual(250);
    const marked = codeBlocks(readme).filter((b) => b.before === '<!-- quickstart -->');
    expect(marked.length).toBeGreaterThan(0);
    expect(marked.every((b) => b.lang === 'bash')).toBe(true);
  });

  it('finds a broken link, a missing anchor and a bad json block (the checks can fail)', () => {
    expect(brokenLink('README.md', 'docs/nope.md')).toMatch(/no such file/);
    expect(brokenLink('README.md', 'docs/api.md#no-such-heading')).toMatch(/no heading/);
    expect(brokenLink('docs/api.md', '#payments')).toBeUndefined();
    expect(brokenLink('docs/api.md', '../README.md#configuration')).toBeUndefined();
    expect(headingAnchors("## The provider's `event` names\n## A\n## A")).toEqual(
      new Set(['the-providers-event-names', 'a', 'a-1']),
    );
    expect(links('see [x](a.md) and `[y](b.md)`\n```\n[z](c.md)\n```')).toEqual([{ line: 1, target: 'a.md' }]);
    const blocks = codeBlocks('  ```json\n  {"a": 1,}\n  ```');
    expect(blocks).toHaveLength(1);
    expect(() => JSON.parse(blocks[0].text)).toThrow();
  });
});
