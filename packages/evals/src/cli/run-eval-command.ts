import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { compareReports, type Comparison } from '../compare/compare-reports';
import type { EvalReport } from '../evaluate/eval-report';
import { evaluate } from '../evaluate/evaluate';
import { htmlReport } from '../report/html-report';
import { readReport } from '../report/read-report';
import { loadEval } from './load-eval';
import type { EvalCommand } from './parse-arguments';

const fileName = (name: string) => name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'eval';
const percent = (share: number) => `${(share * 100).toFixed(1)}%`;

function summaryLines(report: EvalReport): string[] {
  const s = report.summary;
  return [
    `${report.name}: ${s.passed}/${s.items} passed (${percent(s.passRate)}), ${s.errored} errors`,
    `first-pass validity ${percent(s.firstPassValidity)}, re-asks per item ${s.reAsksPerItem.toFixed(2)}, loops ${s.loops}, ${s.calls} model calls, ${s.tokens.total} tokens` +
      (s.costUsd === null ? '' : `, $${s.costUsd.toFixed(6)} ($${s.dollarsPerValidOutput?.toFixed(6) ?? '—'} per valid output)`),
  ];
}

/** What one `keel-eval` command did: its exit code and the lines it printed. */
export interface EvalCommandOutcome {
  readonly exitCode: 0 | 1;
  readonly lines: readonly string[];
  readonly report: EvalReport;
  readonly comparison?: Comparison;
}

/**
 * Runs an eval file, writes its report as JSON and HTML, and compares it with the baseline.
 * @throws {EvalConfigurationError} when the file, its eval or the baseline is not usable.
 */
export async function runEvalCommand(command: EvalCommand): Promise<EvalCommandOutcome> {
  // The baseline first: a file that is not a report is refused before the eval is loaded or any model is called.
  const baseline = command.baseline === undefined ? undefined : await readReport(command.baseline);
  const definition = await loadEval(command.file);
  const report = await evaluate(command.concurrency === undefined ? definition : { ...definition, concurrency: command.concurrency });
  const comparison = baseline && compareReports(report, baseline);
  const name = fileName(report.name);
  await mkdir(command.out, { recursive: true });
  const jsonPath = join(command.out, `${name}.json`);
  const htmlPath = join(command.out, `${name}.html`);
  await writeFile(jsonPath, `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(htmlPath, htmlReport(report, comparison));
  const lines = [...summaryLines(report), `report: ${jsonPath}, ${htmlPath}`];
  let failed = false;
  if (comparison) {
    lines.push(comparison.ok ? `no regression against ${command.baseline}` : `${comparison.regressions.length} regression(s) against ${command.baseline}:`);
    for (const regression of comparison.regressions) lines.push(`  ✗ ${regression.message}`);
    failed = !comparison.ok;
  }
  if (command.minPassRate !== undefined && report.summary.passRate < command.minPassRate) {
    lines.push(`✗ pass rate ${percent(report.summary.passRate)} is under the minimum ${percent(command.minPassRate)}`);
    failed = true;
  }
  return { exitCode: failed ? 1 : 0, lines, report, ...(comparison ? { comparison } : {}) };
}
