import type { RunResult } from '@keel/core';
import { errorMessageOf, readField, type RunRecord } from '@keel/core/internal';
import { runScorer } from '../scorers/score-result';
import type { ItemReport } from './eval-report';
import type { EvalAgent, EvalItem, Scorer } from './eval-types';
import { attemptsOfError, costOfFailure, costOfResult, type EndedRun, failureKindOf, reliabilityOf } from './run-figures';

/** What `run.end` events said, by run id: the usage of a failed run that carries no attempts. */
export type EndedRuns = Map<string, EndedRun>;

/** Where one item runs: its position, its run's id, the scorers, and the `run.end` events heard. */
export interface ItemRun<TOutput, TExpected> {
  readonly index: number;
  readonly runId: string;
  readonly scorers: readonly Scorer<TOutput, TExpected>[];
  readonly ended: EndedRuns;
}

const inputText = (input: EvalItem['input']) => (typeof input === 'string' ? input : JSON.stringify(input));

/** Runs one item, scores it, and reports it with the figures of its ledger. */
export async function runItem<TOutput, TExpected>(agent: EvalAgent<TOutput>, item: EvalItem<TExpected>, { index, runId, scorers, ended }: ItemRun<TOutput, TExpected>): Promise<ItemReport> {
  const started = performance.now();
  const base = { index, id: item.id ?? String(index + 1), runId, input: inputText(item.input), ...(item.expected === undefined ? {} : { expected: item.expected }) };
  let result: RunResult<TOutput>;
  try {
    result = await agent.run(item.input, { runId });
  } catch (error) {
    const kind = failureKindOf(error);
    const attempts = attemptsOfError(error);
    const partial = readField(error, 'partial') as RunRecord | undefined;
    const name = readField(error, 'name');
    return {
      ...base,
      outcome: 'error',
      error: { name: typeof name === 'string' ? name : 'Error', message: errorMessageOf(error), kind },
      scores: Object.fromEntries(scorers.map((scorer) => [scorer.name, { score: 0, pass: false, reason: 'the run failed' }])),
      ...(partial?.usage ? costOfResult(partial) : costOfFailure(attempts, ended.get(runId))),
      reliability: reliabilityOf(attempts ?? [], undefined, kind),
      durationMs: performance.now() - started,
    };
  } finally {
    ended.delete(runId);
  }
  const scores: Record<string, { score: number; pass: boolean; reason?: string }> = {};
  if (result.status === 'suspended') {
    // A suspended run has no value to score: it fails, waiting for approvals.
    for (const scorer of scorers) scores[scorer.name] = { score: 0, pass: false, reason: 'the run suspended for approvals' };
    return { ...base, outcome: 'fail', text: result.text, scores, ...costOfResult(result), reliability: reliabilityOf(result.attempts, result, undefined), durationMs: performance.now() - started };
  }
  for (const scorer of scorers) scores[scorer.name] = await runScorer(scorer, { item, value: result.value, text: result.text, result });
  return {
    ...base,
    outcome: Object.values(scores).every((score) => score.pass) ? 'pass' : 'fail',
    value: result.value,
    text: result.text,
    provenance: result.provenance,
    scores,
    ...costOfResult(result),
    reliability: reliabilityOf(result.attempts, result, undefined),
    durationMs: performance.now() - started,
  };
}
