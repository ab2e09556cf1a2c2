import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { Agent, InMemoryStore, RunSuspendedError } from '../index';
import type { RunResult } from '../index';
import { scriptedModel, asComplete, asSuspended } from '../testing/index';
import { KEY, toolResults, refunds, refundCall, suspended, roundTrip } from './approvals-fixture';

describe('tool approval', () => {
  it('suspends instead of running a tool that needs approval: nothing runs, nothing is stored', async () => {
    const memory = new InMemoryStore();
    const { result, made, model, events } = await suspended({ memory });

    expect(result.status).toBe('suspended');
    expect('value' in result).toBe(false);
    expect(result.pendingApprovals).toEqual([{ toolCallId: 'c1', toolName: 'refund', arguments: { orderId: 'A-1', amount: 40 } }]);
    expect(made).toEqual([]);
    expect(model.calls).toBe(1);
    expect(await memory.load('c')).toEqual([]);
    expect(result.state?.type).toBe('keel.run-state');
    expect(result.state?.version).toBe(2);
    expect(result.state?.pending).toEqual(result.pendingApprovals);
    expect(result.state?.usage.modelCalls).toBe(1);
    expect(events.of('run.suspended')).toMatchObject([{ toolCallIds: 'c1', toolNames: 'refund', pending: 1, suspensionId: result.state?.suspensionId }]);
    expect(events.of('run.end')).toMatchObject([{ status: 'suspended', modelCalls: 1 }]);
    // No tool.end: the call did not end, it waits.
    expect(events.of('tool.end')).toEqual([]);
  });

  it('approved, the JSON state resumes: the tool runs once, the model is not asked again for that step', async () => {
    const memory = new InMemoryStore();
    const { agent, result, made, model, events } = await suspended({ memory });

    const resumed = await agent.resume(roundTrip(result.state), { approve: ['c1'] });

    expect(resumed.status).toBe('complete');
    expect(resumed.text).toBe('Done: refunded 40.');
    expect(made).toEqual([{ orderId: 'A-1', amount: 40 }]);
    // One call suspended the step, one after it: the suspended step was not asked again.
    expect(model.calls).toBe(2);
    expect(toolResults(model.requests[1])).toEqual([{ type: 'tool-result', toolCallId: 'c1', toolName: 'refund', output: 'refunded 40 on A-1', isError: false }]);
    expect(resumed.runId).toBe(result.runId);
    expect(resumed.usage.modelCalls).toBe(2);
    expect(resumed.attempts).toHaveLength(2);
    expect(resumed.usage.inputTokens).toBe(result.usage.inputTokens + (resumed.attempts[1]?.usage.inputTokens ?? Number.NaN));
    expect(resumed.steps.map((step) => [step.step, step.toolCalls])).toEqual([[1, 1], [2, 0]]);
    expect(resumed.toolCalls).toMatchObject([{ toolCallId: 'c1', toolName: 'refund', isError: false, step: 1 }]);
    expect(resumed.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    // Memory gets the whole exchange once, at the end.
    expect((await memory.load('c')).map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(events.of('run.resumed')).toMatchObject([{ runId: result.runId, suspensionId: result.state?.suspensionId, approved: 1, rejected: 0, step: 1 }]);
    expect(events.of('run.end').map((event) => event.status)).toEqual(['suspended', 'complete']);
    expect(events.of('run.end')[1]?.modelCalls).toBe(2);
  });

  it('rejected, the model sees the reason and the tool never runs', async () => {
    const { agent, result, made, model } = await suspended();

    const resumed = await agent.resume(roundTrip(result.state), { reject: [{ id: 'c1', reason: 'over the refund limit' }] });

    expect(made).toEqual([]);
    expect(resumed.status).toBe('complete');
    const [sent] = toolResults(model.requests[1]);
    expect(sent).toMatchObject({ toolCallId: 'c1', isError: true });
    expect(sent?.output).toContain('approval-rejected');
    expect(sent?.output).toContain('over the refund limit');
    expect(resumed.toolCalls).toMatchObject([{ toolCallId: 'c1', isError: true, errorCode: 'approval-rejected' }]);
  });
});

describe('tool approval', () => {
  it('with a stateKey, another agent object with the same tools and key resumes it (another worker)', async () => {
    const { result, made, refund } = await suspended({ stateKey: KEY });
    const model = scriptedModel('Refunded.');
    const worker = Agent.create({ provider: model, model: 'm', stateKey: KEY }).tool(refund).build();

    const resumed = await worker.resume(roundTrip(result.state), { approve: ['c1'] });

    expect(resumed.text).toBe('Refunded.');
    expect(made).toHaveLength(1);
    expect(model.calls).toBe(1);
  });

  it('runTyped throws RunSuspendedError carrying the suspended result; resume returns the typed result', async () => {
    const { refund, made } = refunds();
    const model = scriptedModel([{ toolCalls: [refundCall('c1', 40)] }, '{"refunded": 40}']);
    const agent = Agent.create({ provider: model, model: 'm' })
      .tool(refund)
      .outputSchema(Type.Object({ refunded: Type.Number() }))
      .build();

    const error = await agent.runTyped('go').catch((caught: unknown) => caught);

    expect(RunSuspendedError.isInstance(error)).toBe(true);
    const suspendedResult = (error as RunSuspendedError).result;
    expect(suspendedResult.pendingApprovals).toHaveLength(1);
    const resumed = asComplete(await agent.resume(roundTrip(suspendedResult.state), { approve: ['c1'] }));
    expect(resumed.value).toEqual({ refunded: 40 });
    expect(made).toHaveLength(1);
  });

  it('suspends again at a later step with a new state; each state resumes once', async () => {
    const { refund, made } = refunds();
    const model = scriptedModel([{ toolCalls: [refundCall('c1', 40)] }, { toolCalls: [refundCall('c2', 10, 'B-2')] }, 'Both done.']);
    const agent = Agent.create({ provider: model, model: 'm' }).tool(refund).build();

    const first = asSuspended(await agent.run('go'));
    const second = asSuspended(await agent.resume(roundTrip(first.state), { approve: ['c1'] }));
    expect(second.status).toBe('suspended');
    expect(second.state?.suspensionId).not.toBe(first.state?.suspensionId);
    expect(second.state?.step).toBe(2);
    const done: RunResult = await agent.resume(roundTrip(second.state), { approve: ['c2'] });

    expect(done.text).toBe('Both done.');
    expect(made.map((refunded) => refunded.orderId)).toEqual(['A-1', 'B-2']);
    expect(done.usage.modelCalls).toBe(3);
    expect(done.steps.map((step) => step.step)).toEqual([1, 2, 3]);
  });

  it('a streamed run that suspends ends with the suspended result', async () => {
    const { refund } = refunds();
    const model = scriptedModel([{ toolCalls: [refundCall('c1', 40)] }]);
    const agent = Agent.create({ provider: model, model: 'm' }).tool(refund).build();

    const stream = agent.stream('go');
    const parts: string[] = [];
    for await (const part of stream) parts.push(part.type);
    const result = await stream.result;

    expect(parts.at(-1)).toBe('result');
    expect(result.status).toBe('suspended');
    expect(result.pendingApprovals).toHaveLength(1);
  });
});
