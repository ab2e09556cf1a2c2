import { Type } from '@sinclair/typebox';
import { actionLoopRules, ReliabilityFailFastError } from '@keel/reliability';
import { describe, expect, it } from 'vitest';
import { ActionLoopError, Agent, type AgentEvents, type ModelResponse, tool } from '../index';
import { scriptedModel } from '../testing/index';

const ANY_INPUT = Type.Object({}, { additionalProperties: true });

/** A model that asks for `calls(step)` at each step (ignoring feedback, as a stuck model does) and answers `done` when it gives none. */
function stuckModel(calls: (step: number) => readonly { name: string; arguments: unknown }[] | undefined) {
  return scriptedModel((request) => {
    const step = request.messages.filter((message, index) => message.role === 'assistant' && request.messages[index + 1]?.role === 'tool').length + 1;
    const asked = calls(step);
    if (!asked) return 'done';
    return { toolCalls: asked.map((call, index) => ({ id: `s${step}-${index}-${request.messages.length}`, name: call.name, arguments: call.arguments })) };
  });
}

/** The loop events of a run: loop type, action and rounds. */
function loopEvents() {
  const seen: [string, string, number][] = [];
  return { seen, listener: (event: AgentEvents['reliability.loop-detected']) => void seen.push([event.loop, event.action, event.rounds]) };
}

describe('loop rules the user lists', () => {
  it('replace the defaults: four identical rounds tolerated, the model told twice before the stop', async () => {
    const model = stuckModel(() => [{ name: 'search', arguments: { q: 'x' } }]);
    const search = tool({ name: 'search', description: 'search', input: ANY_INPUT, execute: () => 'no hits' });
    const { seen, listener } = loopEvents();
    const agent = Agent.create({ provider: model, model: 'scripted', maxSteps: 30 })
      .tool(search)
      .reliability({ postDecide: [...actionLoopRules<ModelResponse>({ repeats: 4, nudges: 2 })] })
      .on('reliability.loop-detected', listener)
      .build();
    const error = await agent.run('find x').catch((thrown: unknown) => thrown);
    expect((error as Error).message).toMatch(/loop of actions/);
    expect(ActionLoopError.isInstance(error)).toBe(true);
    // Never the defaults' 3 rounds and 1 nudge: the listed set is the only one.
    expect(seen).toEqual([
      ['repeated-call', 'nudge', 4],
      ['repeated-call', 'nudge', 4],
      ['repeated-call', 'stop', 4],
    ]);
    expect((error as ActionLoopError).partial.toolCalls).toHaveLength(4);
  });

  it('with defaults: false and no loop rules listed, no loop is stopped', async () => {
    const model = stuckModel((step) => (step <= 6 ? [{ name: 'search', arguments: { q: 'x' } }] : undefined));
    const search = tool({ name: 'search', description: 'search', input: ANY_INPUT, execute: () => 'no hits' });
    const result = await Agent.create({ provider: model, model: 'scripted' }).tool(search).reliability({ defaults: false }).build().run('find x');
    expect(result.text).toBe('done');
  });
});

describe('a loop stop', () => {
  it('has its own error kind, a message naming what looped, and the partial result', async () => {
    const model = stuckModel(() => [{ name: 'lookup_order', arguments: { id: 42 } }]);
    const lookup = tool({ name: 'lookup_order', description: 'look an order up', input: ANY_INPUT, execute: () => '{"id":42,"status":"shipped"}' });
    const error = await Agent.create({ provider: model, model: 'scripted', maxSteps: 30 }).tool(lookup).build().run('where is 42?').catch((thrown: unknown) => thrown);
    expect(ActionLoopError.isInstance(error)).toBe(true);
    // Still a gate stop, for code that catches those.
    expect(ReliabilityFailFastError.isInstance(error)).toBe(true);
    const stop = error as ActionLoopError;
    expect(stop.kind).toBe('action-loop');
    expect(stop.errorKind).toBe('action-loop');
    expect(stop.message).toMatch(/loop of actions/);
    expect(stop.message).toContain('`lookup_order` with the same arguments 3 times');
    expect(stop.message).not.toMatch(/valid answer/);
    // What the tools returned so far reaches the caller.
    expect(stop.partial.toolCalls.map((call) => call.output)).toEqual(Array.from({ length: 3 }, () => '{"id":42,"status":"shipped"}'));
    expect(stop.partial.attempts.length).toBe(model.calls);
  });

  it('names both tools of an alternation', async () => {
    const model = stuckModel((step) => [{ name: step % 2 ? 'list_files' : 'read_file', arguments: {} }]);
    const tools = ['list_files', 'read_file'].map((name) => tool({ name, description: name, input: ANY_INPUT, execute: () => `${name}: same` }));
    const error = await Agent.create({ provider: model, model: 'scripted', maxSteps: 30 }).tools(tools).build().run('go').catch((thrown: unknown) => thrown);
    expect((error as Error).message).toMatch(/`(list_files|read_file)` and `(list_files|read_file)` in turn/);
  });
});

describe('polling', () => {
  it('"wait 30 s, then check the deploy status" runs until the deploy is done, however many checks say in_progress', async () => {
    let checks = 0;
    const wait = tool({ name: 'wait', description: 'wait', input: Type.Object({ seconds: Type.Number() }), execute: ({ seconds }) => `waited ${seconds} s` });
    const status = tool({ name: 'deploy_status', description: 'status', input: ANY_INPUT, execute: () => JSON.stringify({ deploy: 'd-1', status: ++checks < 6 ? 'in_progress' : 'succeeded' }) });
    const model = stuckModel((step) => (checks >= 6 ? undefined : [step % 2 ? { name: 'wait', arguments: { seconds: 30 } } : { name: 'deploy_status', arguments: { id: 'd-1' } }]));
    const { seen, listener } = loopEvents();
    const result = await Agent.create({ provider: model, model: 'scripted', maxSteps: 30 }).tools([wait, status]).on('reliability.loop-detected', listener).build().run('deploy');
    expect(result.text).toBe('done');
    expect(seen).toEqual([]);
    expect(checks).toBe(6);
  });
});
