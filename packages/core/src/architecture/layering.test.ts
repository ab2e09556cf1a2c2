import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const oxlint = join(root, 'node_modules', '.bin', 'oxlint');

/**
 * A throwaway copy of the repository layout holding deliberate violations, linted with the
 * repository's own `.oxlintrc.json`: each rule must fail on its violation.
 */
const sandbox = mkdtempSync(join(tmpdir(), 'keel-layering-'));
copyFileSync(join(root, '.oxlintrc.json'), join(sandbox, '.oxlintrc.json'));

function write(path: string, text: string): void {
  mkdirSync(dirname(join(sandbox, path)), { recursive: true });
  writeFileSync(join(sandbox, path), text);
}

/** Lints the sandbox and returns oxlint's report (it exits non-zero on any error). */
function lint(...paths: string[]): string {
  try {
    return execFileSync(oxlint, ['--deny-warnings', '-c', join(sandbox, '.oxlintrc.json'), ...paths.map((path) => join(sandbox, path))], { cwd: sandbox, encoding: 'utf8' });
  } catch (error) {
    return String((error as { stdout?: unknown }).stdout ?? error);
  }
}

afterAll(() => rmSync(sandbox, { recursive: true, force: true }));

describe('lint layering (.oxlintrc.json)', () => {
  it('fails on an import cycle', () => {
    write('packages/core/src/agent/a.ts', "import { b } from './b';\nexport const a = (): number => b() + 1;\n");
    write('packages/core/src/agent/b.ts', "import { a } from './a';\nexport const b = (): number => a() - 1;\n");
    expect(lint('packages/core/src/agent')).toMatch(/import\(no-cycle\)|no-cycle/);
  });

  it('fails when a tool imports the engine or the agent API', () => {
    write('packages/core/src/run/react-loop.ts', 'export const reactLoop = (): number => 1;\n');
    write('packages/core/src/tools/probe.ts', "import { reactLoop } from '../run/react-loop';\nexport const probe = (): number => reactLoop();\n");
    const report = lint('packages/core/src/tools/probe.ts');
    expect(report).toMatch(/no-restricted-imports/);
    expect(report).toContain('tools never import the agent API or the engine');
  });

  it('fails when reliability imports upward, or core imports providers', () => {
    write('packages/reliability/src/probe.ts', "import { Agent } from '@keel/core';\nexport const probe = Agent;\n");
    write('packages/core/src/agent/provider-probe.ts', "import { anthropic } from '@keel/providers';\nexport const probe = anthropic;\n");
    expect(lint('packages/reliability/src/probe.ts')).toContain('@keel/reliability depends on no other Keel package');
    expect(lint('packages/core/src/agent/provider-probe.ts')).toContain('nothing imports upward');
  });

  it('fails when a provider skips core for reliability, or the engine imports the Agent', () => {
    write('packages/providers/src/probe.ts', "import { classifyError } from '@keel/reliability/internal';\nexport const probe = classifyError;\n");
    write('packages/core/src/run/agent-probe.ts', "import { Agent } from '../agent/agent';\nexport const probe = Agent;\n");
    expect(lint('packages/providers/src/probe.ts')).toContain('providers depend on @keel/provider');
    expect(lint('packages/core/src/run/agent-probe.ts')).toContain('never the Agent, its builder or its stream');
  });

  it('passes the same files once the violation is removed', () => {
    write('packages/core/src/tools/probe.ts', 'export const probe = (): number => 1;\n');
    expect(lint('packages/core/src/tools/probe.ts')).toMatch(/Found 0 warnings and 0 errors/);
  });
});

const SOURCE = /\.(?:ts|tsx|mts|mjs|js)$/;

/** Every source file under `packages/*\/src` of `base`, as absolute paths. */
function sourceFiles(base: string): string[] {
  const packages = join(base, 'packages');
  return readdirSync(packages).flatMap((name) => {
    const src = join(packages, name, 'src');
    if (!existsSync(src)) return [];
    return readdirSync(src, { recursive: true, encoding: 'utf8' })
      .filter((path) => SOURCE.test(path) && !path.endsWith('.d.ts') && !path.split(/[\\/]/).includes('node_modules'))
      .map((path) => join(src, path));
  });
}

/** The file a relative specifier names, as TypeScript resolves it (`./x`, `./x.js`, `./x/index`). */
function resolveRelative(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  const stem = base.replace(/\.(?:js|mjs)$/, '');
  const candidates = [base, `${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, `${base}.js`, `${base}.mjs`, join(base, 'index.ts')];
  return candidates.find((candidate) => SOURCE.test(candidate) && existsSync(candidate));
}

/** Each file's relative imports, `import type` and `export ... from` included, read with the TypeScript scanner. */
function importGraph(files: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const imported = ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles.map((reference) => reference.fileName);
    graph.set(file, imported.filter((name) => name.startsWith('.')).flatMap((name) => resolveRelative(file, name) ?? []));
  }
  return graph;
}

/** One import circle of the graph (its files in import order, the first repeated last), or none. */
function findCircle(graph: ReadonlyMap<string, readonly string[]>): string[] | undefined {
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

describe('import circles (packages/*/src)', () => {
  it('no source file reaches itself through relative imports, type-only imports included', () => {
    const circle = findCircle(importGraph(sourceFiles(root)));
    expect(circle?.map((file) => relative(root, file)).join(' -> ')).toBeUndefined();
  });

  it('the scan finds a circle closed by a type-only import, and names its files', () => {
    const house = mkdtempSync(join(tmpdir(), 'keel-circles-'));
    try {
      mkdirSync(join(house, 'packages/circle/src'), { recursive: true });
      writeFileSync(join(house, 'packages/circle/src/agent.ts'), "import { Builder } from './builder';\nexport class Agent { static create = (): Builder => new Builder(); }\n");
      writeFileSync(join(house, 'packages/circle/src/builder.ts'), "import type { Agent } from './agent';\nexport class Builder { agent?: Agent; }\n");
      const circle = findCircle(importGraph(sourceFiles(house)));
      expect(circle?.map((file) => relative(house, file))).toEqual(['packages/circle/src/agent.ts', 'packages/circle/src/builder.ts', 'packages/circle/src/agent.ts']);
    } finally {
      rmSync(house, { recursive: true, force: true });
    }
  });
});
