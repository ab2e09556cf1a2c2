import { Type } from '@sinclair/typebox';
import { describe, expect, it, vi } from 'vitest';
import { Agent, tool } from '../index';
import type { AgentBuilder, AgentEventName, AgentEvents, RunResult } from '../index';
import { scriptedModel } from '../testing/index';
import { AGENT_EVENT_NAMES } from './event-names';


interface Recorded {
  readonly name: AgentEventName;
  readonly payload: AgentEvents[AgentEventName];
}

/** Adds a listener to every event that records name and payload. */
function recordAll<T>(builder: AgentBuilder<T>, into: Recorded[]): AgentBuilder<T> {
  return AGENT_EVENT_NAMES.reduce((next, name) => next.on(name, (payload) => void into.push({ name, payload })), builder);
}

/** A two-step agent: a tool turn, then a final answer. A new script each call, so runs can be compared. */
function twoStepBuilder() {
  const add = tool({
    name: 'add',
    description: 'adds two numbers',
    input: Type.Object({ a: Type.Number(), b: Type.Number() }),
    execute: (input) => ({ sum: input.a + input.b }),
  });
  const model = scriptedModel([{ toolCalls: [{ id: 'add-1', name: 'add', arguments: { a: 2, b: 3 } }] }, 'The sum is 5.']);
  return { model, builder: Agent.create({ provider: model, model: 'm' }).tool(add) };
}

/** A result without its clock readings, so two runs can be compared. */
function withoutTimings(result: RunResult) {
  const { startedAt: _startedAt, durationMs: _durationMs, ...rest } = result;
  return {
    ...rest,
    steps: result.steps.map(({ durationMs: _ignored, ...step }) => step),
    toolCalls: result.toolCalls.map(({ durationMs: _ignored, ...record }) => record),
    attempts: result.attempts.map(({ elapsedMs: _ignored, ...attempt }) => attempt),
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('agent events', () => {
  it('emits the lifecycle events of a two-step run in order', async () => {
    const events: Recorded[] = [];
    const agent = recordAll(twoStepBuilder().builder, events).build();

    await agent.run('add 2 and 3');

    expect(events.map((event) => event.name)).toEqual([
      'run.start',
      'step.start',
      'model.request',
      'model.content',
      'model.response',
      'tool.start',
      'tool.validation',
      'tool.end',
      'step.end',
      'step.start',
      'model.request',
      'model.content',
      'model.response',
      'step.end',
      'run.end',
    ]);
  });

  it('names the re-asked tool call in every event of a re-ask, and no tool call in a step call’s events', async () => {
    const add = tool({ name: 'add', description: 'adds two numbers', input: Type.Object({ a: Type.Number(), b: Type.Number() }), execute: (input) => ({ sum: input.a + input.b }) });
    const rateLimited = Object.assign(new Error('429'), { errorKind: 'rate-limit' as const, retryAfterMs: 1 });
    const model = scriptedModel([
      { toolCalls: [{ id: 'add-1', name: 'add', arguments: { a: 'two', b: 3 } }] },
      rateLimited,
      { toolCalls: [{ id: 'add-1', name: 'add', arguments: { a: 2, b: 3 } }], usage: { inputTokens: -1 } },
      'The sum is 5.',
    ]);
    const events: Recorded[] = [];
    await recordAll(Agent.create({ provider: model, model: 'm' }).tool(add), events).build().run('add 2 and 3');

    const named = (event: Recorded) => [event.name, (event.payload as { toolCallId?: string }).toolCallId];
    const from = events.findIndex((event) => event.name === 'tool.re-ask');
    const to = events.findIndex((event) => event.name === 'tool.validation');
    expect(events.slice(from + 1, to).map(named)).toEqual([
      ['model.request', 'add-1'],
      ['model.error', 'add-1'],
      ['reliability.retry', 'add-1'],
      ['model.request', 'add-1'],
      ['model.content', 'add-1'],
      ['model.response', 'add-1'],
      ['usage.invalid', 'add-1'],
      ['reliability.recovered', 'add-1'],
    ]);
    const stepCalls = events.filter((event, index) => event.name.startsWith('model.') && (index < from || index > to));
    expect(stepCalls.map(named)).toEqual([
      ['model.request', undefined],
      ['model.content', undefined],
      ['model.response', undefined],
      ['model.request', undefined],
      ['model.content', undefined],
      ['model.response', undefined],
    ]);
  });

  it('ties every payload to the run and its step', async () => {
    const events: Recorded[] = [];
    const agent = recordAll(twoStepBuilder().builder, events).build();

    await agent.run('add 2 and 3', { runId: 'run-42' });

    expect(new Set(events.map((event) => event.payload.runId))).toEqual(new Set(['run-42']));
    expect(events.map((event) => event.payload.step)).toEqual([0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2]);
    for (const event of events) expect(typeof event.payload.timestamp).toBe('number');
    const toolEnd = events.find((event) => event.name === 'tool.end')?.payload as AgentEvents['tool.end'];
    expect(toolEnd).toMatchObject({ toolCallId: 'add-1', toolName: 'add', isError: false });
    const stepEnds = events.filter((event) => event.name === 'step.end').map((event) => event.payload as AgentEvents['step.end']);
    expect(stepEnds.map((event) => [event.toolCalls, event.final])).toEqual([
      [1, false],
      [0, true],
    ]);
    const runEnd = events.at(-1)?.payload as AgentEvents['run.end'];
    expect(runEnd).toMatchObject({ status: 'complete', steps: 2, modelCalls: 2 });
  });

  it('delivers every payload frozen, with runId, step and timestamp first, however core built it', async () => {
    const events: Recorded[] = [];
    const agent = recordAll(twoStepBuilder().builder, events).build();
    const result = await agent.run('add 2 and 3');
    expect(new Set(events.map((event) => event.name))).toEqual(new Set(['run.start', 'step.start', 'model.request', 'model.content', 'model.response', 'tool.start', 'tool.validation', 'tool.end', 'step.end', 'run.end']));
    for (const { payload } of events) {
      expect(Object.isFrozen(payload)).toBe(true);
      expect(Object.keys(payload).slice(0, 3)).toEqual(['runId', 'step', 'timestamp']);
      expect(payload.runId).toBe(result.runId);
      expect(Number.isInteger(payload.timestamp)).toBe(true);
    }
  });
});

describe('agent events', () => {
  it('freezes payloads: a listener cannot change what later listeners see', async () => {
    const seenSteps: number[] = [];
    const reports: AgentEvents['listener.error'][] = [];
    const agent = twoStepBuilder()
      .builder.on('step.start', (event) => {
        expect(Object.isFrozen(event)).toBe(true);
        (event as { step: number }).step = 1000;
      })
      .on('step.start', (event) => void seenSteps.push(event.step))
      .on('listener.error', (event) => void reports.push(event))
      .build();

    const result = await agent.run('add 2 and 3');

    expect(seenSteps).toEqual([1, 2]);
    expect(reports.map((event) => [event.event, event.errorName])).toEqual([
      ['step.start', 'TypeError'],
      ['step.start', 'TypeError'],
    ]);
    expect(result.text).toBe('The sum is 5.');
  });

  it('reports a throwing listener as listener.error and leaves the result unchanged', async () => {
    const reference = await twoStepBuilder().builder.build().run('add 2 and 3', { runId: 'same' });

    const reports: AgentEvents['listener.error'][] = [];
    const { model, builder } = twoStepBuilder();
    const agent = builder
      .on('tool.start', () => {
        throw new Error('tool.start listener bug');
      })
      .on('model.response', () => {
        throw new RangeError('model.response listener bug');
      })
      .on('listener.error', (event) => void reports.push(event))
      .build();
    const result = await agent.run('add 2 and 3', { runId: 'same' });

    expect(withoutTimings(result)).toEqual(withoutTimings(reference));
    expect(model.calls).toBe(2);
    expect(reports.map((event) => ({ event: event.event, errorName: event.errorName, message: event.message, runId: event.runId }))).toEqual([
      { event: 'model.response', errorName: 'RangeError', message: 'model.response listener bug', runId: 'same' },
      { event: 'tool.start', errorName: 'Error', message: 'tool.start listener bug', runId: 'same' },
      { event: 'model.response', errorName: 'RangeError', message: 'model.response listener bug', runId: 'same' },
    ]);
  });

  it('reports a listener whose promise rejects as listener.error and leaves the result unchanged', async () => {
    const reference = await twoStepBuilder().builder.build().run('add 2 and 3', { runId: 'same' });

    const reports: AgentEvents['listener.error'][] = [];
    const agent = twoStepBuilder()
      .builder.on('step.end', async () => {
        throw new Error('async listener bug');
      })
      .on('listener.error', (event) => void reports.push(event))
      .build();
    const result = await agent.run('add 2 and 3', { runId: 'same' });
    await settle();

    expect(withoutTimings(result)).toEqual(withoutTimings(reference));
    expect(reports).toHaveLength(2);
    for (const report of reports) expect(report).toMatchObject({ event: 'step.end', message: 'async listener bug', runId: 'same' });
    expect(reports.map((report) => report.step)).toEqual([1, 2]);
  });

  it('does not loop when a listener.error listener throws too', async () => {
    const reporter = vi.fn(() => {
      throw new Error('the reporter is broken as well');
    });
    const agent = twoStepBuilder()
      .builder.on('run.start', () => {
        throw new Error('listener bug');
      })
      .on('listener.error', reporter)
      .build();

    const result = await agent.run('add 2 and 3');

    expect(result.text).toBe('The sum is 5.');
    expect(reporter).toHaveBeenCalledTimes(1);
  });
});
