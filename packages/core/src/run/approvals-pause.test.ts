import { describe, expect, it } from 'vitest';
import { tokenBudget } from '@keel/reliability';
import { Agent, InMemoryStore, ReliabilityFailFastError, tool } from '../index';
import type { Message } from '../index';
import { scriptedModel, asSuspended } from '../testing/index';
import { refunds, refundCall, roundTrip } from './approvals-fixture';

describe('tool approval', () => {
  it('budgets continue across the pause: a token budget counts the calls made before the suspension', async () => {
    const { refund } = refunds();
    // Each call is about 100 tokens; the budget allows the first call and refuses the one after resuming.
    const model = scriptedModel([{ toolCalls: [refundCall('c1', 40)], usage: { inputTokens: 100, outputTokens: 20 } }, { text: 'Done.', usage: { inputTokens: 100, outputTokens: 5 } }]);
    const agent = Agent.create({ provider: model, model: 'm' })
      .tool(refund)
      .reliability({ preCheck: [tokenBudget(110)] })
      .build();

    const result = asSuspended(await agent.run('go'));
    expect(result.usage.totalTokens).toBe(120);
    const error = await agent.resume(roundTrip(result.state), { approve: ['c1'] }).catch((caught: unknown) => caught);

    expect(ReliabilityFailFastError.isInstance(error)).toBe(true);
    expect((error as ReliabilityFailFastError).kind).toBe('token-budget');
    expect(model.calls).toBe(1);
  });

  it('keeps maxSteps across the pause', async () => {
    const { refund } = refunds();
    const model = scriptedModel([{ toolCalls: [refundCall('c1', 40)] }, { toolCalls: [refundCall('c2', 1)] }]);
    const agent = Agent.create({ provider: model, model: 'm', maxSteps: 1 }).tool(refund).build();

    const result = asSuspended(await agent.run('go'));
    const error = await agent.resume(roundTrip(result.state), { approve: ['c1'] }).catch((caught: unknown) => caught);

    expect((error as Error).name).toBe('MaxStepsExceededError');
    expect(model.calls).toBe(1);
  });

  it('an abort while resuming stops the approved tool and rejects; the state is used up', async () => {
    const { refund } = refunds();
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const slow = tool({
      name: 'refund',
      description: 'slow refund',
      input: refund.validator.jsonSchema as never,
      needsApproval: true,
      execute: (_input, context) => {
        started();
        return new Promise((_, reject) => context.signal.addEventListener('abort', () => reject(new Error('stopped'))));
      },
    });
    const model = scriptedModel([{ toolCalls: [refundCall('c1', 40)] }, 'unused']);
    const agent = Agent.create({ provider: model, model: 'm' }).tool(slow).build();
    const result = asSuspended(await agent.run('go'));
    const controller = new AbortController();

    const resuming = agent.resume(roundTrip(result.state), { approve: ['c1'] }, { signal: controller.signal });
    await running;
    controller.abort();

    await expect(resuming).rejects.toMatchObject({ name: 'AbortedError' });
    await expect(agent.resume(roundTrip(result.state), { approve: ['c1'] })).rejects.toMatchObject({ problem: 'already-resumed' });
  });

  it('a resume that fails before any decided call began gives the state back: bad options, an abort first, memory down', async () => {
    const { refund, made } = refunds();
    let memoryDown = false;
    const store = new InMemoryStore();
    const memory = {
      load: (id: string) => (memoryDown ? Promise.reject(new Error('memory is down')) : store.load(id)),
      append: (id: string, messages: readonly Message[]) => store.append(id, messages),
    };
    const model = scriptedModel([{ toolCalls: [refundCall('c1', 40)] }, 'Done.']);
    const agent = Agent.create({ provider: model, model: 'm' }).tool(refund).memory(memory).build();
    const result = asSuspended(await agent.run('go'));
    const state = roundTrip(result.state);

    await expect(agent.resume(state, { approve: ['c1'] }, { timeoutMs: -1 })).rejects.toMatchObject({ name: 'AgentConfigurationError' });
    await expect(agent.resume(state, { approve: ['c1'] }, { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortedError' });
    memoryDown = true;
    await expect(agent.resume(state, { approve: ['c1'] })).rejects.toMatchObject({ name: 'MemoryStoreError' });
    expect(made).toEqual([]);

    memoryDown = false;
    const resumed = await agent.resume(state, { approve: ['c1'] });
    expect(resumed.text).toBe('Done.');
    expect(made).toHaveLength(1);
    expect((await store.load('default')).map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });
});
