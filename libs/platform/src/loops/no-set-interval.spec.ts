import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(__dirname, '../../../..');
const wrapper = relative(root, __dirname);

/** Every .ts and .js file under `dir`, relative to the repository root. */
function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : sources(path);
    return /\.(ts|js)$/.test(e.name) ? [path] : [];
  });
}

describe('periodic work', () => {
  it('runs through the loops wrapper only: no setInterval in apps/ or libs/ outside it', () => {
    const files = [...sources('apps'), ...sources('libs')];
    expect(files.length).toBeGreaterThan(100);
    const offenders = files
      .filter((f) => !f.startsWith(wrapper + '/'))
      .filter((f) => /\bsetInterval\s*\(/.test(readFileSync(join(root, f), 'utf8')));
    expect(offenders).toEqual([]);
  });
});
