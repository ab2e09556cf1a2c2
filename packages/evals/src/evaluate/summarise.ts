import type { EvalSummary, ItemReport, TokenCounts } from './eval-report';

const count = (into: Record<string, number>, key: string, by = 1) => void (into[key] = (into[key] ?? 0) + by);
const share = (part: number, whole: number) => (whole === 0 ? 0 : part / whole);

/** The eval's figures, added up from its items (each from its own run's ledger). */
export function summarise(items: readonly ItemReport[]): EvalSummary {
  const sumOf = (figure: (item: ItemReport) => number) => items.reduce((total, item) => total + figure(item), 0);
  const countOf = (holds: (item: ItemReport) => boolean) => items.filter(holds).length;
  const tokens = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 };
  for (const key of Object.keys(tokens) as (keyof TokenCounts)[]) tokens[key] = sumOf((item) => item.tokens[key]);
  const priced = items.filter((item) => item.costUsd !== null);
  const costUsd = priced.length === 0 ? null : priced.reduce((total, item) => total + (item.costUsd ?? 0), 0);
  const repairs: Record<string, number> = {};
  const coercions: Record<string, number> = {};
  const failuresByKind: Record<string, number> = {};
  const attemptFailuresByKind: Record<string, number> = {};
  const scoreTotals: Record<string, { sum: number; passed: number; count: number }> = {};
  for (const item of items) {
    for (const repair of item.reliability.repairs) count(repairs, repair);
    for (const coercion of item.reliability.coercions) count(coercions, coercion);
    for (const [kind, times] of Object.entries(item.reliability.attemptFailures)) count(attemptFailuresByKind, kind, times);
    if (item.error) count(failuresByKind, item.error.kind);
    for (const [name, score] of Object.entries(item.scores)) {
      const total = (scoreTotals[name] ??= { sum: 0, passed: 0, count: 0 });
      total.sum += score.score;
      total.passed += score.pass ? 1 : 0;
      total.count++;
    }
  }
  const passed = countOf((item) => item.outcome === 'pass');
  const errored = countOf((item) => item.outcome === 'error');
  const validOutputs = countOf((item) => item.outcome !== 'error' && item.provenance === 'model');
  return {
    items: items.length,
    passed,
    failed: items.length - passed - errored,
    errored,
    passRate: share(passed, items.length),
    validOutputs,
    calls: sumOf((item) => item.calls),
    tokens,
    costUsd,
    firstPassValidity: share(countOf((item) => item.reliability.firstPassValid), items.length),
    reAsksPerItem: share(sumOf((item) => item.reliability.reAsks), items.length),
    toolReAsks: sumOf((item) => item.reliability.toolReAsks),
    transientFailures: sumOf((item) => item.reliability.transientFailures),
    repairs,
    coercions,
    patches: sumOf((item) => item.reliability.patches),
    continuations: sumOf((item) => item.reliability.continuations),
    loops: countOf((item) => item.reliability.loop),
    failuresByKind,
    attemptFailuresByKind,
    dollarsPerValidOutput: costUsd === null || validOutputs === 0 ? null : costUsd / validOutputs,
    scores: Object.fromEntries(Object.entries(scoreTotals).map(([name, total]) => [name, { mean: share(total.sum, total.count), passRate: share(total.passed, total.count) }])),
  };
}
