import { randomUUID } from 'node:crypto';
import { EvalConfigurationError } from '../errors/eval-configuration-error';
import { exactMatch } from '../scorers/exact-match';
import type { EvalReport, ItemReport } from './eval-report';
import type { EvalDefinition, Scorer } from './eval-types';
import { type EndedRuns, runItem } from './run-item';
import { summarise } from './summarise';

const DEFAULT_CONCURRENCY = 4;

function check(options: EvalDefinition<unknown, unknown>): void {
  if (typeof options !== 'object' || options === null) throw new EvalConfigurationError({ message: 'evaluate(options): options must be an object with agent and dataset' });
  const { agent, dataset, scorers, concurrency } = options;
  if (typeof agent?.run !== 'function' || typeof agent.on !== 'function') throw new EvalConfigurationError({ message: 'evaluate(options): agent must be a built Keel agent (with run and on)' });
  if (!Array.isArray(dataset)) throw new EvalConfigurationError({ message: 'evaluate(options): dataset must be an array of { input, expected? }' });
  dataset.forEach((item: unknown, index) => {
    const input = (item as { input?: unknown } | null)?.input;
    if (typeof input !== 'string' && !Array.isArray(input) && typeof (input as { message?: unknown } | null)?.message !== 'string') throw new EvalConfigurationError({ message: `evaluate(options): dataset[${index}].input must be a message, { message } or messages` });
    // A report's ids are strings: a number here would make a report that cannot be read back as a baseline.
    const id = (item as { id?: unknown }).id;
    if (id !== undefined && (typeof id !== 'string' || id === '')) throw new EvalConfigurationError({ message: `evaluate(options): dataset[${index}].id must be a non-empty string, not ${JSON.stringify(id)}` });
  });
  const ids = dataset.map((item, index) => item.id ?? String(index + 1));
  const repeated = ids.find((id, index) => ids.indexOf(id) !== index);
  if (repeated !== undefined) throw new EvalConfigurationError({ message: `evaluate(options): two items have the id ${JSON.stringify(repeated)}` });
  if (concurrency !== undefined && !(Number.isInteger(concurrency) && concurrency >= 1)) throw new EvalConfigurationError({ message: `evaluate(options): concurrency must be a whole number of 1 or more, not ${String(concurrency)}` });
  if (scorers !== undefined && (!Array.isArray(scorers) || scorers.some((scorer) => typeof scorer?.name !== 'string' || typeof scorer.score !== 'function'))) throw new EvalConfigurationError({ message: 'evaluate(options): scorers must be an array of { name, score }' });
  const names = (scorers ?? []).map((scorer) => scorer.name);
  const twice = names.find((name, index) => names.indexOf(name) !== index);
  if (twice !== undefined) throw new EvalConfigurationError({ message: `evaluate(options): two scorers are named ${JSON.stringify(twice)}` });
}

/**
 * Runs the agent on every item of the dataset (`concurrency` at once, default 4), scores each
 * completed run, and reports per item the outcome, value, scores, calls, tokens and dollars, and
 * over all items the pass rate and the reliability figures, each taken from the runs' own ledgers
 * (their attempt records and usage) and events: first-pass validity, re-asks per item, repairs and
 * coercions by name, patches and continuations, loops stopped, failures by kind, dollars per valid
 * output. A run that fails is an `error` item, never a thrown eval.
 * @throws {EvalConfigurationError} when the options are not an eval (nothing runs then).
 */
export async function evaluate<TOutput, TExpected = unknown>(options: EvalDefinition<TOutput, TExpected>): Promise<EvalReport> {
  check(options as EvalDefinition<unknown, unknown>);
  const { agent, dataset } = options;
  const scorers: readonly Scorer<TOutput, TExpected>[] = options.scorers ?? (dataset.some((item) => item.expected !== undefined) ? [exactMatch() as Scorer<TOutput, TExpected>] : []);
  const startedAt = new Date();
  const started = performance.now();
  const ended: EndedRuns = new Map();
  const ours = new Set<string>();
  const stop = agent.on('run.end', (event) => {
    if (ours.has(event.runId) && event.parentRunId === undefined) ended.set(event.runId, event);
  });
  const items: ItemReport[] = Array.from({ length: dataset.length });
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < dataset.length; index = next++) {
      const runId = randomUUID();
      ours.add(runId);
      items[index] = await runItem(agent, dataset[index] as (typeof dataset)[number], { index, runId, scorers, ended });
      ours.delete(runId);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(options.concurrency ?? DEFAULT_CONCURRENCY, Math.max(1, dataset.length)) }, worker));
  } finally {
    stop();
  }
  return { keelEvalReport: 1, name: options.name ?? 'eval', startedAt: startedAt.toISOString(), durationMs: performance.now() - started, summary: summarise(items), items };
}

/** Types an eval file's export: returns `definition` as it is. */
export function defineEval<TOutput, TExpected = unknown>(definition: EvalDefinition<TOutput, TExpected>): EvalDefinition<TOutput, TExpected> {
  return definition;
}
