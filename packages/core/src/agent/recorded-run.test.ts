import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { Agent, AgentConfigurationError, MaxStepsExceededError, tool } from '../index';
import type { AgentEvents, RecordedRun } from '../index';
import { KEY, refundCall, refunds } from '../run/approvals-fixture';
import { asSuspended, scriptedModel } from '../testing/index';

const Answer = Type.Object({ total: Type.Number() });
const lookup = tool({ name: 'lookup', description: 'looks up an order', input: Type.Object({ id: Type.String() }), execute: ({ id }) => `order ${id}: 40` });

describe('builder.onRecord()', () => {
  it('hands each run over once, when it ends, with the very records its result holds', async () => {
    const runs: RecordedRun[] = [];
    const model = scriptedModel([{ toolCalls: [{ id: 'c1', name: 'lookup', arguments: { id: 'A-1' } }] }, '{"total": "forty"}', '{"total": 40}']);
    const agent = Agent.create({ provider: model, model: 'm1' }).tool(lookup).outputSchema(Answer).onRecord((run) => void runs.push(run)).build();

    const result = await agent.run('What is the total of A-1?', { runId: 'run-1' });

    expect(runs).toHaveLength(1);
    const [run] = runs as [RecordedRun];
    expect(run).toMatchObject({ runId: 'run-1', status: 'complete', loopsDetected: 0, targets: [{ provider: 'scripted', model: 'm1' }] });
    expect(run.record.attempts).toBe(result.attempts);
    expect(run.record.steps).toBe(result.steps);
    expect(run.record.toolCalls).toBe(result.toolCalls);
    expect(run.ownAttempts).toBe(result.attempts);
    expect(run.record.attempts.map((attempt) => [attempt.step, attempt.attempt, attempt.status])).toEqual([
      [1, 1, 'valid'],
      [2, 1, 'invalid'],
      [2, 2, 'valid'],
    ]);
    expect(run).not.toHaveProperty('parentRunId');
  });

  it('a failed run is handed over with what it had done and its error', async () => {
    const runs: RecordedRun[] = [];
    const model = scriptedModel({ toolCalls: [{ id: 'c1', name: 'lookup', arguments: { id: 'A-1' } }] });
    const agent = Agent.create({ provider: model, model: 'm1', maxSteps: 2 }).tool(lookup).onRecord((run) => void runs.push(run)).build();

    await expect(agent.run('loop')).rejects.toBeInstanceOf(MaxStepsExceededError);

    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ status: 'failed', errorName: 'MaxStepsExceededError' });
    // The model sent `c1` twice: Keel's ids keep the two calls apart.
    expect(runs[0]?.record.toolCalls.map((call) => call.toolCallId)).toEqual(['c1', 'tc_2']);
    expect(runs[0]?.record.attempts).toHaveLength(2);
  });

  it('a suspended run is handed over suspended, and again when its resume ends', async () => {
    const runs: RecordedRun[] = [];
    const { refund } = refunds();
    const model = scriptedModel([{ toolCalls: [refundCall('c1', 40)] }, 'Refunded.']);
    const agent = Agent.create({ provider: model, model: 'm', stateKey: KEY }).tool(refund).onRecord((run) => void runs.push(run)).build();

    const first = asSuspended(await agent.run('Refund 40'));
    await agent.resume(first.state, { approve: ['c1'] });

    expect(runs.map((run) => [run.runId, run.status])).toEqual([
      [first.runId, 'suspended'],
      [first.runId, 'complete'],
    ]);
    expect(runs[1]?.record.attempts).toHaveLength(2);
  });

  it("a sub-agent's run names its caller and the tool call; the caller's own attempts leave the sub-agent's out", async () => {
    const runs: RecordedRun[] = [];
    const onRecord = (run: RecordedRun) => void runs.push(run);
    const sub = Agent.create({ provider: scriptedModel(['{"total": 40}']), model: 'sub' }).outputSchema(Answer).onRecord(onRecord).build();
    const parentModel = scriptedModel([{ toolCalls: [{ id: 't1', name: 'totals', arguments: { message: 'A-1' } }] }, 'It is 40.']);
    const parent = Agent.create({ provider: parentModel, model: 'top' }).tool(sub.asTool({ name: 'totals', description: 'totals an order' })).onRecord(onRecord).build();

    const result = await parent.run('Total of A-1?');

    const [child, top] = runs as [RecordedRun, RecordedRun];
    expect(child).toMatchObject({ parentRunId: result.runId, parentToolCallId: 't1', status: 'complete' });
    expect(child.ownAttempts).toHaveLength(1);
    expect(top.runId).toBe(result.runId);
    expect(top.record.attempts).toHaveLength(3);
    expect(top.ownAttempts).toHaveLength(2);
    expect(top.ownAttempts.every((attempt) => !child.ownAttempts.includes(attempt))).toBe(true);
  });

});

describe('builder.onRecord(): listeners only observe', () => {
  it('a listener that throws or rejects is reported as listener.error and changes nothing', async () => {
    const errors: AgentEvents['listener.error'][] = [];
    const agent = Agent.create({ provider: scriptedModel(['fine', 'fine']), model: 'm' })
      .onRecord(() => {
        throw new Error('exporter down');
      })
      .onRecord(() => Promise.reject(new Error('disk full')))
      .on('listener.error', (error) => void errors.push(error))
      .build();

    const result = await agent.run('hi');
    await new Promise((resolve) => setImmediate(resolve));

    expect(result.text).toBe('fine');
    expect(errors.map((error) => [error.event, error.message])).toEqual([
      ['record', 'exporter down'],
      ['record', 'disk full'],
    ]);
  });

  it("a listener cannot change the result the run's caller receives: the record's lists are frozen, its attempt reported", async () => {
    const errors: string[] = [];
    const agent = Agent.create({ provider: scriptedModel('fine'), model: 'm' })
      .onRecord((run) => {
        (run.record.attempts as unknown[]).push({ forged: true });
      })
      .on('listener.error', (error) => void errors.push(error.event))
      .build();

    const result = await agent.run('hi');

    expect(result.attempts).toHaveLength(1);
    expect(result.usage.modelCalls).toBe(1);
    expect(errors).toEqual(['record']);
  });

  it('refuses what is not a function', () => {
    expect(() => Agent.create({ provider: scriptedModel('x'), model: 'm' }).onRecord('log' as never)).toThrow(AgentConfigurationError);
  });
});
