import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { ReferenceReport } from './testing/reference-suite';

const run = promisify(execFile);
const fixture = fileURLToPath(new URL('./testing/reference-fixture.ts', import.meta.url));

async function runSuite(nodeFlags: readonly string[]): Promise<ReferenceReport> {
  const { stdout } = await run(process.execPath, [...nodeFlags, '--import', 'tsx', '--conditions=@keel/source', fixture], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as ReferenceReport;
}

describe('the MCP reference servers through @keel/mcp (server-everything, server-filesystem)', () => {
  it('runs every tool, invalid arguments re-asked and valid ones run, with and without code generation: no base64 sent, each text once, no process left', async () => {
    const [allowed, forbidden] = await Promise.all([runSuite([]), runSuite(['--disallow-code-generation-from-strings'])]);
    expect(allowed.codeGeneration).toBe(true);
    expect(forbidden.codeGeneration).toBe(false);
    for (const report of [allowed, forbidden]) {
      expect(report.listed['everything']).toHaveLength(13);
      expect(report.listed['filesystem']).toHaveLength(14);
      expect(report.outcomes.filter((outcome) => !outcome.ok)).toEqual([]);
      expect(report.outcomes).toHaveLength(27);
      expect(report.base64Sent).toEqual([]);
      expect(report.processesLeft).toEqual([]);
    }
  }, 120_000);
});
