import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { checkVocabulary, readVocabulary } from './vocabulary-check';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const glossary = readVocabulary(readFileSync(join(ROOT, 'docs/glossary.md'), 'utf8'));

/** The `.d.ts` files a built package ships (`dist/`), by path. */
function builtDeclarations(dir: string): Map<string, string> {
  const dist = join(dir, 'dist');
  const files = new Map<string, string>();
  for (const name of readdirSync(dist, { recursive: true, encoding: 'utf8' })) if (name.endsWith('.d.ts')) files.set(join(dist, name), readFileSync(join(dist, name), 'utf8'));
  return files;
}

/** The declarations of an unbuilt package, emitted in memory from the entries its `exports` name. */
function emittedDeclarations(dir: string): Map<string, string> {
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { exports?: Record<string, { '@keel/source'?: string }> };
  const entries = Object.values(manifest.exports ?? {}).flatMap((target) => (typeof target['@keel/source'] === 'string' ? [join(dir, target['@keel/source'])] : []));
  const options: ts.CompilerOptions = { declaration: true, emitDeclarationOnly: true, skipLibCheck: true, strict: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, customConditions: ['@keel/source'], outDir: join(dir, '.declarations') };
  const files = new Map<string, string>();
  ts.createProgram(entries, options).emit(undefined, (name, text) => {
    if (name.startsWith(join(dir, '.declarations'))) files.set(name, text);
  });
  return files;
}

/** Every published package's declarations: its built `.d.ts` files, or emitted from its source when it is not built. */
function publishedDeclarations(): Map<string, string> {
  const files = new Map<string, string>();
  for (const name of readdirSync(join(ROOT, 'packages'))) {
    const dir = join(ROOT, 'packages', name);
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { private?: boolean };
    if (manifest.private === true) continue;
    for (const [file, text] of existsSync(join(dir, 'dist')) ? builtDeclarations(dir) : emittedDeclarations(dir)) files.set(file, text);
  }
  return files;
}

describe('vocabulary', () => {
  it('reads the glossary: each field with its words', () => {
    expect(glossary.get('status')).toContain('complete');
    expect(glossary.get('status')).not.toContain('ok');
    expect(glossary.get('purpose')).toContain('tool-re-ask');
    expect(glossary.get('type name')).toContain('TokenUsage');
  });

  it('finds a word the glossary does not list, through aliases, unions and indexed types', () => {
    const bad = new Map([
      [
        'bad.d.ts',
        [
          "type Ending = 'ok' | 'complete';",
          "interface RunEnd { readonly status: Ending | 'aborted'; }",
          "interface Call { readonly purpose: 'tool-arguments'; }",
          "interface Later { readonly purpose: Call['purpose']; readonly outcome: Exclude<'valid' | 'success', 'x'>; }",
          'interface EventUsage { readonly inputTokens: number; }',
        ].join('\n'),
      ],
    ]);
    expect(checkVocabulary(bad, glossary).map(({ field, word, owner }) => `${field} ${word} (${owner})`)).toEqual([
      'status ok (RunEnd)',
      'purpose tool-arguments (Call)',
      'purpose tool-arguments (Later)',
      'outcome success (Later)',
      'type name EventUsage (EventUsage)',
    ]);
  });

  it('passes declarations that use the glossary’s words', () => {
    const good = new Map([['good.d.ts', "interface RunEnd { readonly status: 'complete' | 'failed'; readonly purpose: 'step'; }\ninterface TokenUsage { readonly inputTokens: number; }"]]);
    expect(checkVocabulary(good, glossary)).toEqual([]);
  });

  it('every published package’s declarations use only the glossary’s words', { timeout: 240_000 }, () => {
    const problems = checkVocabulary(publishedDeclarations(), glossary);
    expect(problems.map(({ file, field, word, owner }) => `${file.slice(ROOT.length)}: ${owner}.${field} '${word}' is not in docs/glossary.md`)).toEqual([]);
  });
});
