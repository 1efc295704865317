import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import * as ts from 'typescript';

/** One import of a source file: the file, what it wrote, and the repository file that names (root-relative). */
export interface Import {
  from: string;
  specifier: string;
  to: string;
}

/**
 * An upward import. `cycle`: the import joins two siblings (the folders and files of one folder) that import
 * each other, directly or through other siblings, and a folder is in that loop; `path` is the loop. `root`: a file of a feature
 * folder imports its app's composition root (main.ts, cli.ts, the app module), which imports every feature.
 */
export interface UpwardImport extends Import {
  rule: 'cycle' | 'root';
  path: string[];
}

/** `@app/<lib>` is libs/<lib>/src (tsconfig paths); anything else that is not relative is a package. */
const LIBRARY = /^@app\/([a-z-]+)$/;

/** What a file imports: import and export declarations, require() and import() of a literal. */
export function specifiersOf(file: string, text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
}

/** The repository file (root-relative, `/`-separated) a specifier names, or undefined for a package. */
export function resolveImport(root: string, from: string, specifier: string): string | undefined {
  const lib = LIBRARY.exec(specifier);
  let base: string;
  if (lib) base = join(root, 'libs', lib[1], 'src');
  else if (specifier.startsWith('.')) base = join(root, dirname(from), specifier);
  else return undefined;
  const candidates = [`${base}.ts`, `${base}.d.ts`, join(base, 'index.ts'), base];
  const found = candidates.find((c) => existsSync(c) && statSync(c).isFile());
  return found ? relative(root, found).split(sep).join('/') : undefined;
}

/** The imports between repository files of `files` (root-relative paths). */
export function importsOf(root: string, files: string[], read = (f: string) => readFileSync(join(root, f), 'utf8')) {
  return files.flatMap((from) =>
    specifiersOf(from, read(from)).flatMap((specifier): Import[] => {
      const to = resolveImport(root, from, specifier);
      return to ? [{ from, specifier, to }] : [];
    }),
  );
}

/** The deepest folder holding both paths, and the child of it each path is in (a folder or the file itself). */
function siblingsOf(a: string, b: string): { parent: string; a: string; b: string } | undefined {
  const pa = a.split('/');
  const pb = b.split('/');
  let i = 0;
  while (i < pa.length - 1 && i < pb.length - 1 && pa[i] === pb[i]) i++;
  if (pa[i] === pb[i]) return undefined; // the same file
  const parent = pa.slice(0, i).join('/');
  return { parent, a: pa[i], b: pb[i] };
}

/** Strongly connected components (Tarjan) of a graph given as node → successors. */
function components(graph: Map<string, Set<string>>): Map<string, number> {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const component = new Map<string, number>();
  let next = 0;
  let count = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.set(w, count);
      } while (w !== v);
      count++;
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return component;
}

/** The shortest walk from `start` to `goal` along the graph's edges (both included). */
function shortestPath(graph: Map<string, Set<string>>, start: string, goal: string): string[] {
  const previous = new Map<string, string>([[start, start]]);
  const queue = [start];
  while (queue.length) {
    const v = queue.shift()!;
    if (v === goal) break;
    for (const w of graph.get(v) ?? []) {
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  const path = [goal];
  while (path[0] !== start) path.unshift(previous.get(path[0])!);
  return path;
}

/** The composition root of an app: its entry points and its root module, which reach every feature folder. */
const COMPOSITION_ROOT = /^apps\/[a-z-]+\/src\/(main|cli|[a-z-]+\.module)\.ts$/;

/**
 * Every upward import among `imports`. For each folder, the imports between its children (subfolders and
 * files) must form no loop through a subfolder: a child that imports a sibling is below it, and the sibling
 * never imports it back, however far round (files of one folder importing each other are one layer). Checked at every level: apps and libs, one app's or lib's folders, folders inside those.
 * And a file below an app's top folder never imports that app's composition root.
 */
export function upwardImports(imports: Import[]): UpwardImport[] {
  const graphs = new Map<string, Map<string, Set<string>>>();
  const between = imports.flatMap((i) => {
    const s = siblingsOf(i.from, i.to);
    if (!s) return [];
    const graph = graphs.get(s.parent) ?? new Map<string, Set<string>>();
    graphs.set(s.parent, graph);
    graph.set(s.a, (graph.get(s.a) ?? new Set()).add(s.b));
    if (!graph.has(s.b)) graph.set(s.b, new Set());
    return [{ ...i, ...s }];
  });
  const componentsOf = new Map([...graphs].map(([parent, graph]) => [parent, components(graph)]));
  /** Each loop's members, to tell a loop through a folder from one of files of a single folder. */
  const membersOf = new Map(
    [...componentsOf].map(([parent, component]) => {
      const members = new Map<number, string[]>();
      for (const [node, c] of component) members.set(c, [...(members.get(c) ?? []), node]);
      return [parent, members];
    }),
  );
  const cycles = between.flatMap((i): UpwardImport[] => {
    const component = componentsOf.get(i.parent)!;
    if (component.get(i.a) !== component.get(i.b)) return [];
    // Files of one folder that import each other are one layer: that folder's own business.
    if (
      membersOf
        .get(i.parent)!
        .get(component.get(i.a)!)!
        .every((m) => m.endsWith('.ts'))
    )
      return [];
    const back = shortestPath(graphs.get(i.parent)!, i.b, i.a);
    const prefix = i.parent ? `${i.parent}/` : '';
    return [
      { from: i.from, specifier: i.specifier, to: i.to, rule: 'cycle', path: [i.a, ...back].map((c) => prefix + c) },
    ];
  });
  const roots = imports.flatMap((i): UpwardImport[] => {
    const app = /^(apps\/[a-z-]+\/src)\/[^/]+\//.exec(i.from)?.[1];
    if (!app || !COMPOSITION_ROOT.test(i.to) || !i.to.startsWith(`${app}/`)) return [];
    return [{ ...i, rule: 'root', path: [i.from, i.to] }];
  });
  return [...cycles, ...roots];
}

/** One line per upward import, saying which import it is and why it climbs. */
export function describeUpward(u: UpwardImport): string {
  const why = u.rule === 'root' ? 'imports its app composition root' : `closes the loop ${u.path.join(' → ')}`;
  return `${u.from}: import '${u.specifier}' ${why}`;
}
