import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { costBudget, ReliabilityFailFastError, tokenBudget } from '@keel/reliability';
import { Agent, AgentConfigurationError, tool } from '../index';
import { scriptedModel } from '../testing/index';

/** A model that calls `work` with fresh arguments at every step, 300 tokens a call (never a loop). */
const busyModel = () => scriptedModel((request) => ({ toolCalls: [{ id: `w${request.messages.length}`, name: 'work', arguments: { n: request.messages.length } }], usage: { inputTokens: 250, outputTokens: 50 } }));
const work = tool({ name: 'work', description: 'w', input: Type.Object({ n: Type.Number() }), execute: async ({ n }) => `result ${n}` });
/** A parent whose first turn calls the `child` tool `count` times at once (100 tokens), then answers. */
const delegatingModel = (count: number) =>
  scriptedModel([{ toolCalls: Array.from({ length: count }, (_, index) => ({ id: `c${index}`, name: 'child', arguments: { message: `part ${index}` } })), usage: { inputTokens: 100, outputTokens: 0 } }, 'done']);
const kindOf = (error: unknown) => (ReliabilityFailFastError.isInstance(error) ? error.kind : (error as Error).name);
const PRICE = { inputPerMTok: 3, outputPerMTok: 15 };

describe('cost is never silently $0', () => {
  it('build() refuses a pricing table without the model, a failover model or the summary model', () => {
    const build = (options: object) => () => Agent.create({ provider: scriptedModel('x'), model: 'm', ...options }).build();
    expect(build({ pricing: { 'm-typo': PRICE } })).toThrow(AgentConfigurationError);
    expect(build({ pricing: { 'm-typo': PRICE } })).toThrow(/\(pricing\): has no price for model "m"/);
    expect(build({ pricing: { m: PRICE }, failover: [{ provider: scriptedModel('y'), model: 'backup' }] })).toThrow(/no price for model "backup"/);
    expect(() => Agent.create({ provider: scriptedModel('x'), model: 'm', pricing: { m: PRICE } }).context({ summarize: { provider: scriptedModel('s'), model: 'summarizer' } }).build()).toThrow(/no price for model "summarizer"/);
    // A free model is priced at 0, explicitly.
    expect(build({ pricing: { m: PRICE, local: { inputPerMTok: 0, outputPerMTok: 0 } }, failover: [{ provider: scriptedModel('y'), model: 'local' }] })()).toBeDefined();
  });

  it('a sub-agent without pricing is priced by the run above it, so the tree costBudget holds', async () => {
    const inner = busyModel();
    const child = Agent.create({ provider: inner, model: 'm', maxSteps: 50 }).tool(work).build();
    const parent = Agent.create({ provider: delegatingModel(1), model: 'm', pricing: { m: { inputPerMTok: 1000, outputPerMTok: 1000 } } })
      .tool(child.asTool({ name: 'child', description: 'c' }))
      .reliability({ preCheck: [costBudget({ maxUsd: 1 })] })
      .build();
    const error = await parent.run('go').catch((thrown: unknown) => thrown);
    expect(kindOf(error)).toBe('cost-budget');
    // $0.30 a call: the budget stops the tree after at most 4 of the child's calls, never 50.
    expect(inner.calls).toBeLessThanOrEqual(4);
  });

  it('a sub-agent whose model has a price nowhere in a priced tree fails with a typed error, before any call', async () => {
    const inner = busyModel();
    const child = Agent.create({ provider: inner, model: 'other' }).tool(work).build();
    const parent = Agent.create({ provider: delegatingModel(1), model: 'm', pricing: { m: PRICE } }).tool(child.asTool({ name: 'child', description: 'c' })).build();
    const result = await parent.run('go');
    expect(inner.calls).toBe(0);
    expect(result.toolCalls[0]?.output).toMatch(/AgentConfigurationError|no price for model "other"/);
  });
});

describe('token budgets across parallel and nested runs (held)', () => {
  it('four sub-agents started in one turn overspend by at most one call each, then stop', async () => {
    const inner = busyModel();
    const child = Agent.create({ provider: inner, model: 'scripted', maxSteps: 50 }).tool(work).build();
    const parent = Agent.create({ provider: delegatingModel(4), model: 'scripted' }).tool(child.asTool({ name: 'child', description: 'c' })).reliability({ preCheck: [tokenBudget(1000)] }).build();
    const error = await parent.run('go').catch((thrown: unknown) => thrown);
    expect(kindOf(error)).toBe('token-budget');
    // 100 + 4 × 300 = 1,300: the overshoot (300) is within one call per run in flight (4 × 300).
    expect(100 + inner.calls * 300).toBeLessThanOrEqual(1000 + 4 * 300);
  });

  it('a sub-agent with its own bigger budget still stops at the smaller budget above it', async () => {
    const inner = busyModel();
    const child = Agent.create({ provider: inner, model: 'scripted', maxSteps: 50 }).tool(work).reliability({ preCheck: [tokenBudget(100_000)] }).build();
    const parent = Agent.create({ provider: delegatingModel(1), model: 'scripted' }).tool(child.asTool({ name: 'child', description: 'c' })).reliability({ preCheck: [tokenBudget(1000)] }).build();
    await parent.run('go').catch(() => undefined);
    expect(100 + inner.calls * 300).toBeLessThanOrEqual(1000 + 300);
  });

  it('a streamed run stops at its token budget as a run does', async () => {
    const model = busyModel();
    const agent = Agent.create({ provider: model, model: 'scripted', maxSteps: 50 }).tool(work).reliability({ preCheck: [tokenBudget(1000)] }).build();
    let error: unknown;
    try {
      for await (const chunk of agent.stream('go')) void chunk;
    } catch (thrown) {
      error = thrown;
    }
    expect(kindOf(error)).toBe('token-budget');
    expect(model.calls).toBe(4);
  });

  it('a budget spent by a turn with invalid tool arguments makes no re-ask', async () => {
    const model = scriptedModel({ toolCalls: [{ id: 'x', name: 'work', arguments: { n: 'not a number' } }], usage: { inputTokens: 1100, outputTokens: 50 } });
    const agent = Agent.create({ provider: model, model: 'scripted' }).tool(work).reliability({ preCheck: [tokenBudget(1000)] }).build();
    const error = await agent.run('go').catch((thrown: unknown) => thrown);
    expect(kindOf(error)).toBe('token-budget');
    expect(model.calls).toBe(1);
  });
});
