import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';

const SOURCE = /\.(?:ts|tsx|mts|mjs|js)$/;

/** Every source file under `packages/*\/src` of `base`, as absolute paths. */
export function sourceFiles(base: string): string[] {
  const packages = join(base, 'packages');
  return readdirSync(packages).flatMap((name) => {
    const src = join(packages, name, 'src');
    if (!existsSync(src)) return [];
    return readdirSync(src, { recursive: true, encoding: 'utf8' })
      .filter((path) => SOURCE.test(path) && !path.endsWith('.d.ts') && !path.split(/[\\/]/).includes('node_modules'))
      .map((path) => join(src, path));
  });
}

/** Whether a file drives its package from the outside (a test or a fixture): it may import anything in it. */
export function isTestSupport(file: string): boolean {
  return /\.test\.[cm]?[jt]sx?$|-fixture\.[cm]?[jt]sx?$/.test(file);
}

/** Every module specifier a file names, `import type` and `export ... from` included, read with the TypeScript scanner. */
export function specifiersOf(file: string): string[] {
  return ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles.map((reference) => reference.fileName);
}

/** The file a relative specifier names, as TypeScript resolves it (`./x`, `./x.js`, `./x/index`). */
export function resolveRelative(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  const stem = base.replace(/\.(?:js|mjs)$/, '');
  const candidates = [base, `${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, `${base}.js`, `${base}.mjs`, join(base, 'index.ts')];
  return candidates.find((candidate) => SOURCE.test(candidate) && existsSync(candidate));
}

/** Each file's relative imports, resolved to files. */
export function importGraph(files: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    graph.set(file, specifiersOf(file).filter((name) => name.startsWith('.')).flatMap((name) => resolveRelative(file, name) ?? []));
  }
  return graph;
}

/** One import circle of the graph (its files in import order, the first repeated last), or none. */
export function findCircle(graph: ReadonlyMap<string, readonly string[]>): string[] | undefined {
  const done = new Set<string>();
  const path: string[] = [];
  const onPath = new Set<string>();
  const visit = (file: string): string[] | undefined => {
    if (onPath.has(file)) return [...path.slice(path.indexOf(file)), file];
    if (done.has(file)) return undefined;
    path.push(file);
    onPath.add(file);
    for (const next of graph.get(file) ?? []) {
      const circle = visit(next);
      if (circle) return circle;
    }
    path.pop();
    onPath.delete(file);
    done.add(file);
    return undefined;
  };
  for (const file of graph.keys()) {
    const circle = visit(file);
    if (circle) return circle;
  }
  return undefined;
}
