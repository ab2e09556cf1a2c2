import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { ReliabilityFailFastError, tokenBudget } from '@keel/reliability';
import { Agent, type AgentBuilder, type ModelProvider } from '../index';
import { MaxDepthExceededError } from '../errors/max-depth-exceeded-error';
import { scriptedModel } from '../testing/index';

/** An agent whose model always delegates to itself (its own `asTool()`), 200 tokens a call. */
function selfDelegating(configure: (builder: AgentBuilder<string>) => AgentBuilder<string>, maxSteps = 3) {
  const model = scriptedModel((request) => ({
    toolCalls: [{ id: `d${request.messages.length}`, name: 'delegate', arguments: { message: 'go deeper' } }],
    usage: { inputTokens: 150, outputTokens: 50 },
  }));
  let agent: Agent<string> | undefined;
  const delegate = {
    ...Agent.create({ provider: model, model: 'scripted' }).build().asTool({ name: 'delegate', description: 'd' }),
    // Calls the agent being built (itself), as an agent that delegates to itself does.
    execute: (input: unknown, context: never) => (agent as Agent<string>).asTool({ name: 'delegate', description: 'd' }).execute(input as { message: string }, context),
  };
  agent = configure(Agent.create({ provider: model, model: 'scripted', maxSteps }).tool(delegate)).build();
  return { agent, model };
}

describe('budgets hold across sub-agents', () => {
  it('a self-delegating agent under tokenBudget(1000) stops within one call of 1,000 tokens in all', async () => {
    const { agent, model } = selfDelegating((builder) => builder.reliability({ preCheck: [tokenBudget(1000)] }));
    const result = await agent.run('go').catch((error: unknown) => error);
    // Every call spends 200 tokens: the tree of runs made at most 1,000 / 200 + 1 calls.
    expect(model.calls * 200).toBeLessThanOrEqual(1000 + 200);
    expect(ReliabilityFailFastError.isInstance(result) || (result as { status?: string }).status !== undefined).toBe(true);
  });

  it('a nested run under a spent parent budget makes no call', async () => {
    const inner = scriptedModel('inner answer');
    const child = Agent.create({ provider: inner, model: 'scripted' }).build();
    const outer = scriptedModel([{ toolCalls: [{ id: 'c1', name: 'child', arguments: { message: 'help' } }], usage: { inputTokens: 900, outputTokens: 200 } }, 'done']);
    const parent = Agent.create({ provider: outer, model: 'scripted' })
      .tool(child.asTool({ name: 'child', description: 'c' }))
      .reliability({ preCheck: [tokenBudget(1000)] })
      .build();
    await parent.run('go').catch(() => undefined);
    expect(inner.calls).toBe(0);
  });

  it('stops recursion at maxDepth with a typed error the calling model sees', async () => {
    const { agent, model } = selfDelegating((builder) => builder, 1);
    await agent.run('go').catch(() => undefined);
    // With one step a run, depths 0 to 4 make one call each; the run at depth 5 is refused before any call.
    expect(model.calls).toBe(5);
    expect(new MaxDepthExceededError({ depth: 5, maxDepth: 4 }).retryable).toBe(false);
  });

  it('refuses a maxDepth that is not a whole number', () => {
    expect(() => Agent.create({ provider: scriptedModel('x'), model: 'm', maxDepth: -1 }).build()).toThrow(/maxDepth/);
  });
});

describe('usage is never silently zero', () => {
  it('a model that reports no usage cannot run past a token budget: its calls count as estimates', async () => {
    let page = 0;
    const search = { name: 'search', description: 's', input: Type.Object({}), execute: () => `${++page}`.padEnd(3000, 'x') };
    // A provider that reports no counts at all (as some AI SDK models do).
    let calls = 0;
    const model: ModelProvider & { readonly calls: number } = {
      specificationVersion: 'v1',
      name: 'no-usage',
      get calls() {
        return calls;
      },
      generate: async (request) => {
        calls++;
        return { content: [{ type: 'tool-call', id: `c${request.messages.length}`, name: 'search', arguments: {} }], text: '', finishReason: 'tool-calls', usage: { inputTokens: undefined, outputTokens: undefined } as never };
      },
    };
    const invalid: string[] = [];
    const agent = Agent.create({ provider: model, model: 'scripted', maxSteps: 50 })
      .tool((await import('../index')).tool(search))
      .reliability({ preCheck: [tokenBudget(5000)] })
      .on('usage.invalid', (event) => void invalid.push(event.field))
      .build();
    const error = await agent.run('go').catch((thrown: unknown) => thrown);
    expect(ReliabilityFailFastError.isInstance(error) && error.kind).toBe('token-budget');
    expect(model.calls).toBeLessThan(10);
    expect(invalid).toContain('inputTokens');
  });
});
