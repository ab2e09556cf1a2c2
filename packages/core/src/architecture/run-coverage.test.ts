import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const packageRoot = fileURLToPath(new URL('../../', import.meta.url));
const doc = fileURLToPath(new URL('../../../../docs/architecture.md', import.meta.url));

/** The files `docs/architecture.md` lists between its `run-files` markers, as `core/src/...` paths. */
function documentedFiles(): string[] {
  const text = readFileSync(doc, 'utf8');
  const start = text.indexOf('<!-- run-files -->');
  const end = text.indexOf('<!-- /run-files -->');
  if (start < 0 || end < start) throw new Error('docs/architecture.md has no run-files list');
  return [...text.slice(start, end).matchAll(/^\| `((?:core|reliability)\/src\/[^`]+\.ts)` \|/gm)].map((match) => match[1] as string).sort();
}

describe('one run, file by file', () => {
  it('one warmed-up run with one model call executes exactly the source files of core and reliability docs/architecture.md lists', () => {
    // V8 precise coverage in a child process: no test instrumentation, the sources themselves (tsx).
    const output = execFileSync(process.execPath, ['--conditions=@keel/source', '--import', 'tsx', 'src/testing/run-coverage-fixture.ts'], { cwd: packageRoot, encoding: 'utf8' });
    const executed = JSON.parse(output) as string[];
    expect(executed).toEqual(documentedFiles());
  }, 60_000);

  it('the list docs/architecture.md gives holds at most 12 files', () => {
    const documented = documentedFiles();
    expect(documented.length).toBeGreaterThan(0);
    expect(documented.length, documented.join('\n')).toBeLessThanOrEqual(12);
  });
});
