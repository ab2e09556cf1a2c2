import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
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
    expect(report).toContain('Layering inside core: contracts and the parts');
  });

  it('fails when reliability imports upward, or core imports providers', () => {
    write('packages/reliability/src/probe.ts', "import { Agent } from '@keel/core';\nexport const probe = Agent;\n");
    write('packages/core/src/agent/provider-probe.ts', "import { anthropic } from '@keel/providers';\nexport const probe = anthropic;\n");
    expect(lint('packages/reliability/src/probe.ts')).toContain('@keel/reliability imports only packages below it (none)');
    expect(lint('packages/core/src/agent/provider-probe.ts')).toContain('nothing imports upward');
  });

  it('fails when a provider skips core for reliability, or the engine imports the Agent', () => {
    write('packages/providers/src/probe.ts', "import { classifyError } from '@keel/reliability/internal';\nexport const probe = classifyError;\n");
    write('packages/core/src/run/agent-probe.ts', "import { Agent } from '../agent/agent';\nexport const probe = Agent;\n");
    expect(lint('packages/providers/src/probe.ts')).toContain('never @keel/core/internal or @keel/reliability');
    expect(lint('packages/core/src/run/agent-probe.ts')).toContain('Layering inside core: the engine (run/)');
  });

  it('fails when a contract imports the engine, or a package imports one of its own layer', () => {
    write('packages/core/src/contracts/run-probe.ts', "import type { RunState } from '../run/state/run-state';\nexport type Probe = RunState;\n");
    write('packages/redis/src/probe.ts', "import { otel } from '@keel/otel';\nexport const probe = otel;\n");
    expect(lint('packages/core/src/contracts/run-probe.ts')).toContain('never run-view/, run/');
    expect(lint('packages/redis/src/probe.ts')).toContain('@keel/redis imports only packages below it');
  });

  it('passes the same files once the violation is removed', () => {
    write('packages/core/src/tools/probe.ts', 'export const probe = (): number => 1;\n');
    expect(lint('packages/core/src/tools/probe.ts')).toMatch(/Found 0 warnings and 0 errors/);
  });
});
