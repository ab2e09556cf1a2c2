/** What a baseline report must hold for `compareReports` to read it, checked before an eval runs. */

const OUTCOMES: ReadonlySet<unknown> = new Set(['pass', 'fail', 'error']);

/** The summary's figures a comparison reads, each a finite number. */
const FIGURES = ['passRate', 'firstPassValidity', 'reAsksPerItem', 'loops', 'errored'] as const;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isFiniteNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

function summaryProblem(summary: Record<string, unknown>): string | undefined {
  for (const figure of FIGURES) if (!isFiniteNumber(summary[figure])) return `has no summary.${figure} (a number)`;
  const dollars = summary['dollarsPerValidOutput'];
  if (dollars !== undefined && dollars !== null && !isFiniteNumber(dollars)) return 'has a summary.dollarsPerValidOutput that is neither a number nor null';
  const scores = summary['scores'];
  if (!isObject(scores)) return 'has no summary.scores (an object of mean scores by scorer, {} when there are none)';
  for (const [name, score] of Object.entries(scores)) {
    if (!isObject(score) || !isFiniteNumber(score['mean'])) return `has a summary.scores.${name} without a mean (a number)`;
  }
  return undefined;
}

function itemsProblem(items: readonly unknown[]): string | undefined {
  for (const [index, item] of items.entries()) {
    if (!isObject(item) || typeof item['id'] !== 'string' || !OUTCOMES.has(item['outcome'])) return 'has an item without id or outcome (pass, fail or error)';
    if (item['input'] !== undefined && typeof item['input'] !== 'string') return `has an item (items[${index}], ${item['id']}) whose input is not text`;
  }
  return undefined;
}

/**
 * What keeps `data` from being a report a run can be compared with: the format marker
 * (`keelEvalReport: 1`), a summary whose figures are numbers (`passRate`, `firstPassValidity`,
 * `reAsksPerItem`, `loops`, `errored`; `dollarsPerValidOutput` a number or null), `summary.scores`
 * with a numeric `mean` per scorer, and items each with an `id`, an `outcome` (pass, fail or
 * error) and, when present, a text `input`. `undefined` when it is one.
 */
export function reportProblem(data: unknown): string | undefined {
  if (!isObject(data) || data['keelEvalReport'] !== 1 || !isObject(data['summary']) || !Array.isArray(data['items'])) return 'is not an eval report (keelEvalReport 1, with summary and items)';
  return summaryProblem(data['summary']) ?? itemsProblem(data['items']);
}
