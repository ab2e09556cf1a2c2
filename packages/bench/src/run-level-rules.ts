import { Type } from '@sinclair/typebox';
import { Agent, tool } from '@keel/core';
import type { ModelProviderV1 } from '@keel/provider';
import { defaultRules } from '@keel/reliability';
import { compare, pairedRatio, type Timing } from './measure';

/** Tool steps of the measured run: each reads another page, so no loop is ever found. */
const STEPS = 10;

/** A zero-latency model that reads one page a step, then answers. */
function pagingModel(): ModelProviderV1 {
  return {
    specificationVersion: 'v1',
    name: 'paging',
    generate: async (request) => {
      const done = request.messages.filter((message) => message.role === 'tool').length;
      const usage = { inputTokens: 100, outputTokens: 10, cacheReadTokens: 0, cacheWriteTokens: 0 };
      if (done >= STEPS) return { content: [{ type: 'text', text: 'done' }], text: 'done', finishReason: 'stop', usage };
      return { content: [{ type: 'tool-call', id: `c${done}`, name: 'read_page', arguments: { page: done } }], text: '', finishReason: 'tool-calls', usage };
    },
  };
}

const readPage = tool({ name: 'read_page', description: 'Read a page', input: Type.Object({ page: Type.Number() }), execute: ({ page }) => ({ page, rows: [page * 2, page * 2 + 1] }) });

/**
 * The cost of the run-level rules (the action-loop rules, which read `scope.run` on every step
 * after the first): the same 11-step run with the default rules and with the defaults less them,
 * side by side, per step.
 */
export async function measureRunLevelRules(): Promise<{ with: Timing; without: Timing; perStepWithUs: number; perStepWithoutUs: number; ratio: { median: number; p25: number; p75: number } }> {
  const withRules = Agent.create({ provider: pagingModel(), model: 'bench', maxSteps: STEPS + 1 }).tool(readPage).build();
  // The default rules less the two action-loop rules (the first two).
  const withoutRules = Agent.create({ provider: pagingModel(), model: 'bench', maxSteps: STEPS + 1 })
    .tool(readPage)
    .reliability({ postDecide: defaultRules().slice(2), defaults: false })
    .build();
  const timings = await compare(
    [
      { name: 'with', run: () => withRules.run('read every page') },
      { name: 'without', run: () => withoutRules.run('read every page') },
    ],
    { rounds: 20, batch: 50, warmup: 200 },
  );
  const withTiming = timings.get('with') as Timing;
  const withoutTiming = timings.get('without') as Timing;
  return { with: withTiming, without: withoutTiming, perStepWithUs: withTiming.medianUs / (STEPS + 1), perStepWithoutUs: withoutTiming.medianUs / (STEPS + 1), ratio: pairedRatio(withTiming, withoutTiming) };
}
