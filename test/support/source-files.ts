import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Every TypeScript file below `dir` (node_modules left out); unit specs only when `specs` is true. */
export function typescriptFiles(dir: string, specs = false): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : typescriptFiles(path, specs);
    return e.name.endsWith('.ts') && (specs || !e.name.endsWith('.spec.ts')) ? [path] : [];
  });
}
