import { describe, expect, it } from 'vitest';
import type { EvalReport, ItemReport } from '../evaluate/eval-report';
import { summarise } from '../evaluate/summarise';
import { compareReports } from './compare-reports';

const item = (id: string, outcome: ItemReport['outcome'], overrides: Partial<ItemReport['reliability']> = {}, costUsd = 0.001): ItemReport => ({
  index: 0,
  id,
  runId: id,
  input: id,
  outcome,
  ...(outcome === 'error' ? { error: { name: 'ReliabilityFailFastError', message: 'stuck', kind: 'schema-stuck-loop' } } : { value: 1, provenance: 'model' }),
  scores: { 'exact-match': { score: outcome === 'pass' ? 1 : 0, pass: outcome === 'pass', ...(outcome === 'fail' ? { reason: 'expected 1, got 2' } : {}) } },
  calls: 1,
  tokens: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, total: 15 },
  costUsd,
  reliability: { firstPassValid: outcome !== 'error', reAsks: 0, toolReAsks: 0, transientFailures: 0, repairs: [], coercions: [], patches: 0, continuations: 0, loop: outcome === 'error', attemptFailures: {}, ...overrides },
  durationMs: 1,
});
const report = (items: ItemReport[]): EvalReport => ({ keelEvalReport: 1, name: 'r', startedAt: '2026-01-01T00:00:00.000Z', durationMs: 1, summary: summarise(items), items });

describe('compareReports', () => {
  const baseline = report([item('a', 'pass'), item('b', 'pass'), item('c', 'fail')]);

  it('finds nothing when nothing got worse, improvements included', () => {
    expect(compareReports(baseline, baseline)).toEqual({ ok: true, regressions: [] });
    expect(compareReports(report([item('a', 'pass'), item('b', 'pass'), item('c', 'pass')]), baseline).ok).toBe(true);
  });

  it('names each figure that got worse and each item that stopped passing', () => {
    const current = report([item('a', 'pass', { reAsks: 2, firstPassValid: false }, 0.004), item('b', 'error'), item('c', 'fail')]);
    const { ok, regressions } = compareReports(current, baseline);
    expect(ok).toBe(false);
    expect(regressions.map((regression) => regression.message)).toEqual([
      'pass rate fell from 66.7% to 33.3%',
      'first-pass validity fell from 100.0% to 33.3%',
      're-asks per item rose from 0.00 to 0.67',
      'runs stopped as loops rose from 0 to 1',
      'failed runs rose from 0 to 1',
      'dollars per valid output rose from $0.001000 to $0.003000',
      'mean exact-match score fell from 0.667 to 0.333',
      'item b passed in the baseline and now fails to run: schema-stuck-loop: stuck',
    ]);
  });

  it('allows the tolerances given', () => {
    const current = report([item('a', 'pass'), item('b', 'fail'), item('c', 'fail')]);
    const tolerant = compareReports(current, baseline, { passRate: 0.4, score: 0.4 });
    expect(tolerant.regressions.map((regression) => regression.metric)).toEqual(['item:b']);
  });

  it('names the baseline items a report of another dataset lacks or ran on another input, and the scorers that no longer run, rather than passing', () => {
    const other = report([{ ...item('a', 'pass'), input: 'another question' }, item('d', 'pass'), item('e', 'pass')]);
    const { ok, regressions } = compareReports({ ...other, summary: { ...other.summary, scores: {} } }, baseline);
    expect(ok).toBe(false);
    expect(regressions.map((regression) => regression.message)).toEqual([
      'the exact-match scorer of the baseline no longer runs',
      'item a has another input than in the baseline',
      'item b of the baseline is not in this report',
      'item c of the baseline is not in this report',
    ]);
  });
});
