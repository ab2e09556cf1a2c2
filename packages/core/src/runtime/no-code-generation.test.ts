import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const fixture = fileURLToPath(new URL('./no-code-generation-fixture.ts', import.meta.url));

async function runFixture(nodeFlags: readonly string[]) {
  const { stdout } = await run(process.execPath, [...nodeFlags, '--import', 'tsx', '--conditions=@keel/source', fixture], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
  });
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as { codeGeneration: boolean; value: unknown; feedback: string[]; calls: number };
}

describe('an agent where code generation is forbidden (edge runtimes)', () => {
  it('validates TypeBox output and tool arguments with the same feedback as with code generation', async () => {
    const [forbidden, allowed] = await Promise.all([runFixture(['--disallow-code-generation-from-strings']), runFixture([])]);
    expect(forbidden.codeGeneration).toBe(false);
    expect(allowed.codeGeneration).toBe(true);
    expect(forbidden.value).toEqual({ action: 'refund', amount: 50 });
    expect(forbidden.calls).toBe(4);
    expect(forbidden.feedback).toHaveLength(2);
    expect(forbidden.feedback[0]).toContain("'id': expected integer, got string");
    expect(forbidden.feedback[0]).toContain("'email': expected email address");
    expect(forbidden.feedback[0]).toContain("'note': unknown field");
    expect(forbidden.feedback[1]).toContain("'amount': expected number, got string");
    expect(forbidden).toEqual({ ...allowed, codeGeneration: false });
  }, 60_000);
});
