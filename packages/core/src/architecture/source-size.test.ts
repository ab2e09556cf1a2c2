import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../../', import.meta.url));

/** The longest a function may be, from its first line to its last. */
const MAX_FUNCTION_LINES = 100;
/** The longest a source file may be. */
const MAX_FILE_LINES = 400;

/** Every TypeScript source file under `packages/<name>/src`, tests included, as paths from the repository root. */
function sourceFiles(): string[] {
  const files: string[] = [];
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && entry.name !== 'dist') walk(path);
      } else if (/\.(ts|tsx|mts)$/.test(entry.name) && !/\.d\.(ts|mts)$/.test(entry.name)) {
        files.push(relative(root, path).split(sep).join('/'));
      }
    }
  };
  for (const entry of readdirSync(join(root, 'packages'), { withFileTypes: true })) {
    const src = join(root, 'packages', entry.name, 'src');
    if (entry.isDirectory() && existsSync(src)) walk(src);
  }
  return files.sort();
}

/** What a function-like node is called in a report: its own name, or the name it is bound to. */
function nameOf(node: ts.FunctionLikeDeclaration, source: ts.SourceFile): string {
  if (node.name) return node.name.getText(source);
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && parent.name) return parent.name.getText(source);
  return `<${ts.SyntaxKind[node.kind]}>`;
}

/** A function (or a file) and its length, as a failure names it. */
interface Offender {
  readonly path: string;
  readonly line: number;
  readonly name: string;
  readonly lines: number;
}

/** The line a node starts on (1-based, after its leading trivia) and how many lines it spans. */
function extentOf(node: ts.Node, source: ts.SourceFile): { readonly line: number; readonly lines: number } {
  const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
  const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
  return { line: first + 1, lines: last - first + 1 };
}

/** Every function-like node with a body in the source `text` of file `path`, with where it starts and how long it is. */
function functionsIn(path: string, text: string): Offender[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, path.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: Offender[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const declaration = node as ts.FunctionLikeDeclaration;
      found.push({ path, name: nameOf(declaration, source), ...extentOf(declaration, source) });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** One offender as the failure lists it: `path:line name (N lines)`. */
const describeOffender = ({ path, line, name, lines }: Offender): string => `${path}:${line} ${name} (${lines} lines)`;

const files = sourceFiles();

/** Parsing every source file takes seconds on a loaded machine. */
const SCAN_TIMEOUT_MS = 60_000;

describe('source size', () => {
  it('finds the source files of every package, tests included', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.some((path) => path.startsWith('packages/core/src/'))).toBe(true);
    expect(files.some((path) => path.endsWith('.test.ts'))).toBe(true);
  });

  it('measures every function-like node with a body from its first line to its last, its doc comment left out', () => {
    const body = Array.from({ length: 99 }, (_, index) => `  const value${index} = ${index};`).join('\n');
    const text = [
      '/** Long. */',
      `export function long(): void {\n${body}\n}`,
      'const short = () => 1;',
      'class Box {\n  method(): number {\n    return [1].map(function (value) { return value; })[0] ?? 0;\n  }\n}',
      'interface Shape {\n  area(): number;\n}',
    ].join('\n');
    expect(functionsIn('sample.ts', text).map(describeOffender)).toEqual([
      'sample.ts:2 long (101 lines)',
      'sample.ts:103 short (1 lines)',
      'sample.ts:105 method (3 lines)',
      'sample.ts:106 <FunctionExpression> (1 lines)',
    ]);
  });

  it(`no function spans more than ${MAX_FUNCTION_LINES} lines`, () => {
    const functions = files.flatMap((path) => functionsIn(path, readFileSync(join(root, path), 'utf8')));
    expect(functions.length).toBeGreaterThan(files.length);
    const offenders = functions.filter(({ lines }) => lines > MAX_FUNCTION_LINES);
    expect(offenders.map(describeOffender), `functions over ${MAX_FUNCTION_LINES} lines`).toEqual([]);
  }, SCAN_TIMEOUT_MS);

  it(`no source file is over ${MAX_FILE_LINES} lines`, () => {
    const offenders = files
      .map((path) => ({ path, line: 1, name: '<file>', lines: readFileSync(join(root, path), 'utf8').replace(/\n$/, '').split('\n').length }))
      .filter(({ lines }) => lines > MAX_FILE_LINES);
    expect(offenders.map(describeOffender), `files over ${MAX_FILE_LINES} lines`).toEqual([]);
  });
});
