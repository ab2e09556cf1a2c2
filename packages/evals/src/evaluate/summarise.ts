import type { EvalSummary, ItemReport, TokenCounts } from './eval-report';

const count = (into: Record<string, number>, key: string, by = 1) => void (into[key] = (into[key] ?? 0) + by);
const share = (part: number, whole: number) => (whole === 0 ? 0 : part / whole);

/** The eval's figures, added up from its items (each from its own run's ledger). */
export function summarise(items: readonly ItemReport[]): EvalSummary {
  const tokens = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 };
  const repairs: Record<string, number> = {};
  const coercions: Record<string, number> = {};
  const failuresByKind: Record<string, number> = {};
  const attemptFailuresByKind: Record<string, number> = {};
  const scoreTotals: Record<string, { sum: number; passed: number; count: number }> = {};
  let costUsd: number | null = null;
  let calls = 0;
  let reAsks = 0;
  let toolReAsks = 0;
  let transientFailures = 0;
  let patches = 0;
  let continuations = 0;
  let loops = 0;
  let firstPass = 0;
  let validOutputs = 0;
  for (const item of items) {
    for (const key of Object.keys(tokens) as (keyof TokenCounts)[]) tokens[key] += item.tokens[key];
    if (item.costUsd !== null) costUsd = (costUsd ?? 0) + item.costUsd;
    calls += item.calls;
    const figures = item.reliability;
    reAsks += figures.reAsks;
    toolReAsks += figures.toolReAsks;
    transientFailures += figures.transientFailures;
    patches += figures.patches;
    continuations += figures.continuations;
    if (figures.loop) loops++;
    if (figures.firstPassValid) firstPass++;
    for (const repair of figures.repairs) count(repairs, repair);
    for (const coercion of figures.coercions) count(coercions, coercion);
    for (const [kind, times] of Object.entries(figures.attemptFailures)) count(attemptFailuresByKind, kind, times);
    if (item.error) count(failuresByKind, item.error.kind);
    if (item.outcome !== 'error' && item.provenance === 'model') validOutputs++;
    for (const [name, score] of Object.entries(item.scores)) {
      const total = (scoreTotals[name] ??= { sum: 0, passed: 0, count: 0 });
      total.sum += score.score;
      total.passed += score.pass ? 1 : 0;
      total.count++;
    }
  }
  const passed = items.filter((item) => item.outcome === 'pass').length;
  const errored = items.filter((item) => item.outcome === 'error').length;
  return {
    items: items.length,
    passed,
    failed: items.length - passed - errored,
    errored,
    passRate: share(passed, items.length),
    validOutputs,
    calls,
    tokens,
    costUsd,
    firstPassValidity: share(firstPass, items.length),
    reAsksPerItem: share(reAsks, items.length),
    toolReAsks,
    transientFailures,
    repairs,
    coercions,
    patches,
    continuations,
    loops,
    failuresByKind,
    attemptFailuresByKind,
    dollarsPerValidOutput: costUsd === null || validOutputs === 0 ? null : costUsd / validOutputs,
    scores: Object.fromEntries(Object.entries(scoreTotals).map(([name, total]) => [name, { mean: share(total.sum, total.count), passRate: share(total.passed, total.count) }])),
  };
}
