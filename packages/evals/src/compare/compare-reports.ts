import type { EvalReport, EvalSummary, ItemReport } from '../evaluate/eval-report';

/** One figure that got worse, or one item that passed and no longer does. */
export interface Regression {
  /**
   * `passRate`, `firstPassValidity`, `reAsksPerItem`, `dollarsPerValidOutput`, `loops`, `errored`,
   * `score:<name>` (a mean score fell, or the scorer no longer runs), or `item:<id>` (the item
   * stopped passing, is no longer in the dataset, or now has another input).
   */
  readonly metric: string;
  readonly baseline: number | string;
  readonly current: number | string;
  /** One line a person reads, e.g. `pass rate fell from 95.0% to 80.0%`. */
  readonly message: string;
}

/** How much a figure may worsen before it is a regression. Shares are absolute (0.05 = 5 points); dollars relative. */
export interface CompareOptions {
  /** Default 0: any drop is a regression. */
  readonly passRate?: number;
  /** Default 0. */
  readonly firstPassValidity?: number;
  /** Re-asks per item may rise this much. Default 0. */
  readonly reAsksPerItem?: number;
  /** Dollars per valid output may rise by this share (0.1 = 10%). Default 0.1. */
  readonly dollarsPerValidOutput?: number;
  /** Mean scores may fall this much. Default 0. */
  readonly score?: number;
}

/** What {@link compareReports} finds. */
export interface Comparison {
  /** True when nothing regressed. */
  readonly ok: boolean;
  readonly regressions: readonly Regression[];
}

const percent = (share: number) => `${(share * 100).toFixed(1)}%`;
/** Figures compared in floating point: a difference this small is equality. */
const EPSILON = 1e-9;

function figureRegressions(current: EvalSummary, baseline: EvalSummary, options: CompareOptions): Regression[] {
  const out: Regression[] = [];
  const lower = (metric: string, label: string, now: number, before: number, tolerance: number, show: (value: number) => string) => {
    if (now < before - tolerance - EPSILON) out.push({ metric, baseline: before, current: now, message: `${label} fell from ${show(before)} to ${show(now)}` });
  };
  const higher = (metric: string, label: string, now: number, before: number, tolerance: number, show: (value: number) => string) => {
    if (now > before + tolerance + EPSILON) out.push({ metric, baseline: before, current: now, message: `${label} rose from ${show(before)} to ${show(now)}` });
  };
  lower('passRate', 'pass rate', current.passRate, baseline.passRate, options.passRate ?? 0, percent);
  lower('firstPassValidity', 'first-pass validity', current.firstPassValidity, baseline.firstPassValidity, options.firstPassValidity ?? 0, percent);
  higher('reAsksPerItem', 're-asks per item', current.reAsksPerItem, baseline.reAsksPerItem, options.reAsksPerItem ?? 0, (value) => value.toFixed(2));
  higher('loops', 'runs stopped as loops', current.loops, baseline.loops, 0, String);
  higher('errored', 'failed runs', current.errored, baseline.errored, 0, String);
  if (current.dollarsPerValidOutput !== null && baseline.dollarsPerValidOutput !== null) {
    higher('dollarsPerValidOutput', 'dollars per valid output', current.dollarsPerValidOutput, baseline.dollarsPerValidOutput, baseline.dollarsPerValidOutput * (options.dollarsPerValidOutput ?? 0.1), (value) => `$${value.toFixed(6)}`);
  }
  for (const [name, before] of Object.entries(baseline.scores)) {
    const now = current.scores[name];
    if (now) lower(`score:${name}`, `mean ${name} score`, now.mean, before.mean, options.score ?? 0, (value) => value.toFixed(3));
    else out.push({ metric: `score:${name}`, baseline: before.mean, current: 'missing', message: `the ${name} scorer of the baseline no longer runs` });
  }
  return out;
}

/** Why an item that passed in the baseline does not now: the failing scores, or the run's error. */
function whyNotPassing(item: ItemReport): string {
  if (item.error) return `${item.error.kind}: ${item.error.message}`;
  return Object.entries(item.scores)
    .filter(([, score]) => !score.pass)
    .map(([name, score]) => `${name}${score.reason ? ` (${score.reason})` : ''}`)
    .join(', ');
}

/**
 * Items compared by id: each baseline item missing now, or run on another input (a report of
 * another dataset is not compared as if it were the same one), and each that passed and does not now.
 */
function itemRegressions(current: EvalReport, baseline: EvalReport): Regression[] {
  const out: Regression[] = [];
  const now = new Map(current.items.map((item) => [item.id, item]));
  for (const before of baseline.items) {
    const item = now.get(before.id);
    if (!item) out.push({ metric: `item:${before.id}`, baseline: before.outcome, current: 'missing', message: `item ${before.id} of the baseline is not in this report` });
    else if (typeof before.input === 'string' && item.input !== before.input) out.push({ metric: `item:${before.id}`, baseline: before.input, current: item.input, message: `item ${before.id} has another input than in the baseline` });
    else if (before.outcome === 'pass' && item.outcome !== 'pass') out.push({ metric: `item:${before.id}`, baseline: 'pass', current: item.outcome, message: `item ${before.id} passed in the baseline and now ${item.outcome === 'error' ? 'fails to run' : 'fails'}: ${whyNotPassing(item)}` });
  }
  return out;
}

/**
 * Names what got worse from `baseline` to `current`: the pass rate, first-pass validity, re-asks
 * per item, loops, failed runs, dollars per valid output (beyond 10% by default), mean scores, and
 * every item (matched by id) that passed in the baseline and does not now. A baseline item missing
 * from `current`, or run on another input, and a baseline scorer that no longer runs are regressions
 * too, so a report of another dataset never passes as no change. Improvements and new items are not
 * regressions. For CI: `keel-eval --baseline` exits non-zero when `ok` is false.
 */
export function compareReports(current: EvalReport, baseline: EvalReport, options: CompareOptions = {}): Comparison {
  const regressions = [...figureRegressions(current.summary, baseline.summary, options), ...itemRegressions(current, baseline)];
  return { ok: regressions.length === 0, regressions };
}
