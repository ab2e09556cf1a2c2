import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const source = fileURLToPath(new URL('.', import.meta.url));

describe('@keel/bullmq public types', () => {
  it('name only public entry points of other packages (no @keel/*/internal in any declaration)', () => {
    const files = readdirSync(source).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'));
    expect(files).toContain('run-job.ts');
    const offending = files.filter((name) => {
      // The declaration each file publishes, as the build emits it (imports of the types it names).
      const { outputText } = ts.transpileDeclaration(readFileSync(`${source}${name}`, 'utf8'), { fileName: name, compilerOptions: { verbatimModuleSyntax: true } });
      return /['"]@keel\/[a-z-]+\/internal['"]/.test(outputText);
    });
    expect(offending).toEqual([]);
  });
});
