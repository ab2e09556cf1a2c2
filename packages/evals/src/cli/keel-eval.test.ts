import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EvalConfigurationError } from '../errors/eval-configuration-error';
import type { EvalReport } from '../evaluate/eval-report';
import { evaluate } from '../evaluate/evaluate';
import { supportEval } from '../testing/support-eval';
import { runEvalCommand } from './run-eval-command';

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const bin = join(packageRoot, 'src', 'cli', 'keel-eval.ts');
const evalFile = join(packageRoot, 'src', 'testing', 'support.eval.ts');

/** Runs the `keel-eval` command as a child process, as CI does (from the sources, through tsx). */
function keelEval(args: readonly string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=@keel/source', bin, ...args], { cwd: packageRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as EvalReport;
/** A report without what differs between two runs of the same calls: run ids, times. */
const figuresOf = (report: EvalReport) => ({ summary: report.summary, items: report.items.map(({ runId: _runId, durationMs: _durationMs, ...item }) => item) });

describe('keel-eval', () => {
  it('writes JSON and HTML reports whose figures are the runs\', replays them from a cassette, and exits 1 when a changed agent passes less', async () => {
    const work = mkdtempSync(join(tmpdir(), 'keel-eval-'));
    const cassettePath = join(work, 'support.cassette.json');

    // 1. The baseline, recorded through a cassette in front of the scripted model.
    const recorded = await keelEval([evalFile, '--out', join(work, 'baseline')], { EVAL_CASSETTE: cassettePath, EVAL_CASSETTE_MODE: 'record' });
    expect(recorded.stderr).toBe('');
    expect(recorded.code).toBe(0);
    expect(recorded.stdout).toContain('support-triage-baseline: 18/20 passed (90.0%), 1 errors');
    const baselinePath = join(work, 'baseline', 'support-triage-baseline.json');
    const baseline = readJson(baselinePath);

    // Its figures are those of the same runs made here, whose items the eval test checks against each run's ledger.
    const here = await evaluate(supportEval());
    expect(figuresOf(baseline)).toEqual(figuresOf(here));
    const html = readFileSync(join(work, 'baseline', 'support-triage-baseline.html'), 'utf8');
    const { summary } = baseline;
    expect(html).toContain(`<td>Pass rate</td><td>90.0% (18 passed, 1 failed, 1 errors of 20)</td>`);
    expect(html).toContain(`<td>Model calls</td><td>${summary.calls}</td>`);
    expect(html).toContain(`<td>Tokens</td><td>${summary.tokens.total} (`);
    expect(html).toContain(`<td>Dollars</td><td>$${(summary.costUsd ?? 0).toFixed(6)}</td>`);
    expect(html).toContain(`<td>Failures by kind</td><td>schema-stuck-loop ×1</td>`);
    expect(html).toContain(`<td>First-pass validity</td><td>85.0%</td>`);

    // 2. The same eval replayed offline from the cassette: the same figures, no regression.
    const replayed = await keelEval([evalFile, '--out', join(work, 'replay'), '--baseline', baselinePath], { EVAL_CASSETTE: cassettePath, EVAL_CASSETTE_MODE: 'replay' });
    expect(replayed.code).toBe(0);
    expect(replayed.stdout).toContain(`no regression against ${baselinePath}`);
    expect(figuresOf(readJson(join(work, 'replay', 'support-triage-baseline.json')))).toEqual(figuresOf(baseline));

    // 3. A changed agent routes five tickets wrongly: the pass rate drops and the command fails.
    const changed = await keelEval([evalFile, '--out', join(work, 'changed'), '--baseline', baselinePath], { EVAL_VARIANT: 'changed', EVAL_CASSETTE: join(work, 'changed.cassette.json'), EVAL_CASSETTE_MODE: 'record' });
    expect(changed.code).toBe(1);
    expect(changed.stdout).toContain('support-triage-changed: 13/20 passed (65.0%)');
    expect(changed.stdout).toContain('✗ pass rate fell from 90.0% to 65.0%');
    expect(changed.stdout).toContain('✗ item ticket-10 passed in the baseline and now fails: exact-match (expected');
    expect(readFileSync(join(work, 'changed', 'support-triage-changed.html'), 'utf8')).toContain('pass rate fell from 90.0% to 65.0%');
  }, 120_000);

  it('exits 1 under --min-pass-rate, and 2 with the reason for a bad command, eval file or baseline', async () => {
    const work = mkdtempSync(join(tmpdir(), 'keel-eval-'));
    const strict = await runEvalCommand({ file: evalFile, out: work, minPassRate: 0.95 });
    expect(strict.exitCode).toBe(1);
    expect(strict.lines).toContain('✗ pass rate 90.0% is under the minimum 95.0%');

    const empty = join(work, 'empty.eval.mjs');
    writeFileSync(empty, 'export const answer = 42;\n');
    await expect(runEvalCommand({ file: empty, out: work })).rejects.toThrow('exports no eval');
    await expect(runEvalCommand({ file: join(work, 'missing.eval.mjs'), out: work })).rejects.toThrow('cannot be loaded');
    const notReport = join(work, 'not-a-report.json');
    writeFileSync(notReport, '{"hello": 1}');
    await expect(runEvalCommand({ file: evalFile, out: work, baseline: notReport })).rejects.toSatisfy(EvalConfigurationError.isInstance);

    // The command prints the reason and exits 2.
    const failed = await keelEval([empty], {});
    expect([failed.code, failed.stderr]).toEqual([2, expect.stringContaining('keel-eval: the eval file')]);
    expect(failed.stderr).toContain('exports no eval');
  }, 120_000);

  it('refuses a baseline without summary.scores before the eval is loaded, let alone run, and exits 2', async () => {
    const work = mkdtempSync(join(tmpdir(), 'keel-eval-'));
    const scoreless = join(work, 'scoreless.json');
    const report = await evaluate(supportEval({ variant: 'baseline' }));
    const { scores: _scores, ...summary } = report.summary;
    writeFileSync(scoreless, JSON.stringify({ ...report, summary }));
    // An eval file that fails the moment it is loaded: the baseline is refused first.
    const tripwire = join(work, 'tripwire.eval.mjs');
    writeFileSync(tripwire, 'throw new Error("the eval was loaded");\n');
    const refused: unknown = await runEvalCommand({ file: tripwire, out: work, baseline: scoreless }).catch((error: unknown) => error);
    expect(EvalConfigurationError.isInstance(refused) && refused.message).toBe(`the report ${scoreless} has no summary.scores (an object of mean scores by scorer, {} when there are none)`);

    const failed = await keelEval([tripwire, '--out', work, '--baseline', scoreless], {});
    expect([failed.code, failed.stderr]).toEqual([2, expect.stringContaining('has no summary.scores')]);
    expect(failed.stderr).not.toContain('the eval was loaded');
  }, 120_000);

  it('takes a blank or non-numeric --min-pass-rate as a bad command: exit 2, nothing run', async () => {
    for (const value of [' ', 'abc', '0x1', 'Infinity']) {
      const failed = await keelEval([evalFile, '--min-pass-rate', value], {});
      expect([failed.code, failed.stderr], value).toEqual([2, expect.stringContaining('--min-pass-rate must be a number from 0 to 1')]);
      expect(failed.stdout).toBe('');
    }
  }, 120_000);
});
