import type { RunInput, RunOptions, RunResult } from '@keel/core';
import { describe, expect, it } from 'vitest';
import { EvalConfigurationError } from '../errors/eval-configuration-error';
import { supportEval, type Triage } from '../testing/support-eval';
import type { EvalAgent } from './eval-types';
import { evaluate } from './evaluate';

/** Wraps an agent to keep each run's result or error, by run id: the ledgers the report must agree with. */
function watched(agent: EvalAgent<Triage>) {
  const runs = new Map<string, { result?: RunResult<Triage>; error?: unknown }>();
  let inFlight = 0;
  let most = 0;
  const wrapped: EvalAgent<Triage> = {
    on: (event, listener) => agent.on(event, listener),
    run: async (input: RunInput, options?: RunOptions) => {
      most = Math.max(most, ++inFlight);
      try {
        const result = await agent.run(input, options);
        runs.set(options?.runId ?? '', { result });
        return result;
      } catch (error) {
        runs.set(options?.runId ?? '', { error });
        throw error;
      } finally {
        inFlight--;
      }
    },
  };
  return { wrapped, runs, most: () => most };
}

describe('evaluate()', () => {
  it('reports per item and overall figures equal to the runs\' own ledgers', async () => {
    const definition = supportEval();
    const { wrapped, runs, most } = watched(definition.agent);
    const report = await evaluate({ ...definition, agent: wrapped, concurrency: 3 });
    expect(most()).toBe(3);
    expect(report.items.map((item) => item.id)).toEqual(definition.dataset.map((item) => item.id));

    let calls = 0;
    let tokens = 0;
    let cost = 0;
    for (const item of report.items) {
      const run = runs.get(item.runId);
      if (!run) throw new Error(`no run ${item.runId}`);
      const attempts = run.result ? run.result.attempts : (run.error as { attempts: RunResult['attempts'] }).attempts;
      expect(item.calls).toBe(attempts.length);
      const ledgerTokens = attempts.reduce((sum, attempt) => sum + attempt.usage.inputTokens + attempt.usage.outputTokens, 0);
      const ledgerCost = attempts.reduce((sum, attempt) => sum + (attempt.usage.costUsd ?? 0), 0);
      expect(item.tokens.total).toBe(ledgerTokens);
      expect(item.costUsd).toBeCloseTo(ledgerCost, 12);
      if (run.result) expect([item.calls, item.tokens.total, item.costUsd]).toEqual([run.result.usage.modelCalls, run.result.usage.totalTokens, run.result.usage.costUsd]);
      expect(item.reliability.reAsks).toBe(attempts.filter((attempt) => attempt.feedbackSent).length);
      calls += item.calls;
      tokens += item.tokens.total;
      cost += item.costUsd ?? 0;
    }
    const { summary } = report;
    expect([summary.calls, summary.tokens.total]).toEqual([calls, tokens]);
    expect(summary.costUsd).toBeCloseTo(cost, 12);

    // What the scripted model was made to do (see testing/support-eval.ts).
    expect([summary.items, summary.passed, summary.failed, summary.errored]).toEqual([20, 18, 1, 1]);
    expect(summary.passRate).toBe(0.9);
    expect(report.items.find((item) => item.id === 'ticket-4')).toMatchObject({ outcome: 'fail', scores: { 'exact-match': { pass: false } } });
    expect(report.items.find((item) => item.id === 'ticket-7')).toMatchObject({ outcome: 'error', error: { kind: 'schema-stuck-loop' }, reliability: { loop: true } });
    expect(summary.failuresByKind).toEqual({ 'schema-stuck-loop': 1 });
    expect(summary.loops).toBe(1);
    expect(summary.repairs).toEqual({ 'trailing-comma': 1 });
    expect(Object.values(summary.coercions)).toEqual([1]);
    expect(summary.transientFailures).toBe(1);
    expect(summary.attemptFailuresByKind['rate-limit']).toBe(1);
    // Tickets 1 and 6 were re-asked once; 7 until the loop stopped it; the rest passed first time.
    const reAsked = report.items.filter((item) => item.reliability.reAsks > 0).map((item) => item.id);
    expect(reAsked).toEqual(['ticket-1', 'ticket-6', 'ticket-7']);
    expect(summary.firstPassValidity).toBe(17 / 20);
    expect(summary.reAsksPerItem).toBe(report.items.reduce((sum, item) => sum + item.reliability.reAsks, 0) / 20);
    expect(summary.validOutputs).toBe(19);
    expect(summary.dollarsPerValidOutput).toBeCloseTo(cost / 19, 12);
    expect(summary.scores['exact-match']).toEqual({ mean: 18 / 20, passRate: 18 / 20 });
  });

  it('passes an item without expected value and scorers when its run completes', async () => {
    const { agent } = supportEval();
    const report = await evaluate({ agent, dataset: [{ input: 'Ticket 5: shipping.' }, { input: 'Ticket 7: stuck.' }] });
    expect(report.items.map((item) => [item.outcome, item.scores])).toEqual([['pass', {}], ['error', {}]]);
  });

  it('refuses what is not an eval, before running anything', async () => {
    const { agent, dataset } = supportEval();
    const bad = async (options: unknown) => evaluate(options as never).then(() => 'ran', (error: unknown) => (EvalConfigurationError.isInstance(error) ? error.message : `other: ${String(error)}`));
    expect(await bad({ dataset })).toMatch(/agent must be a built Keel agent/);
    expect(await bad({ agent, dataset: 'tickets' })).toMatch(/dataset must be an array/);
    expect(await bad({ agent, dataset: [{ input: 42 }] })).toMatch(/dataset\[0\]\.input must be/);
    expect(await bad({ agent, dataset: [{ id: 'a', input: 'x' }, { id: 'a', input: 'y' }] })).toMatch(/two items have the id "a"/);
    expect(await bad({ agent, dataset, concurrency: 0 })).toMatch(/concurrency must be a whole number/);
    expect(await bad({ agent, dataset, scorers: [{ name: 'x' }] })).toMatch(/scorers must be an array/);
  });

  it('refuses an item id that is not a string, which would write a report that cannot be read back as a baseline', async () => {
    const { agent } = supportEval();
    const refused = await evaluate({ agent, dataset: [{ id: 7 as unknown as string, input: 'x' }] }).then(() => 'ran', (error: unknown) => (EvalConfigurationError.isInstance(error) ? error.message : `other: ${String(error)}`));
    expect(refused).toMatch(/dataset\[0\]\.id must be a non-empty string, not 7/);
  });
});
