import { describe, expect, it } from 'vitest';
import { compareReports } from '../compare/compare-reports';
import type { EvalReport, ItemReport } from '../evaluate/eval-report';
import { summarise } from '../evaluate/summarise';
import { htmlReport } from './html-report';

const hostile = '<script>alert("x")</script><img src=x onerror=alert(1)>';
const item: ItemReport = {
  index: 0, id: 'ticket-<1>', runId: 'r', input: hostile, outcome: 'fail', value: { note: hostile }, provenance: 'model',
  scores: { 'exact-match': { score: 0, pass: false, reason: hostile } }, calls: 2, tokens: { input: 100, output: 20, cacheRead: 0, cacheWrite: 0, total: 120 }, costUsd: 0.0006,
  reliability: { firstPassValid: false, reAsks: 1, toolReAsks: 0, transientFailures: 0, repairs: ['trailing-comma'], coercions: ['string-to-number'], patches: 0, continuations: 0, loop: false, attemptFailures: { 'schema-fail': 1 } },
  durationMs: 3,
};
const report: EvalReport = { keelEvalReport: 1, name: 'triage', startedAt: '2026-11-25T18:00:00.000Z', durationMs: 1234, summary: summarise([item]), items: [item] };

describe('htmlReport', () => {
  it('is one self-contained page with the figures, every text escaped', () => {
    const html = htmlReport(report);
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img');
    expect(html).not.toMatch(/<[a-z][^<>]*\s(?:src|href)=/i);
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(html).toContain('ticket-&lt;1&gt;');
    expect(html).toContain('<td>Pass rate</td><td>0.0% (0 passed, 1 failed, 0 errors of 1)</td>');
    expect(html).toContain('<td>Repairs</td><td>trailing-comma ×1</td>');
    expect(html).toContain('<td>Dollars per valid output</td><td>$0.000600 (1 valid outputs)</td>');
    expect(html).toContain('1 re-ask, trailing-comma, coerced string-to-number');
  });

  it('lists the regressions against a baseline', () => {
    const better: EvalReport = { ...report, summary: { ...report.summary, passRate: 1 } };
    expect(htmlReport(report, compareReports(report, better))).toContain('<tr class="regression"><td>pass rate fell from 100.0% to 0.0%</td></tr>');
    expect(htmlReport(report, compareReports(report, report))).toContain('No regression against the baseline.');
  });
});
