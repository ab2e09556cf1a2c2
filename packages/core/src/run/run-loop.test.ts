import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { Agent, MaxStepsExceededError, ReliabilityFailFastError, tool } from '../index';
import type { Message, ModelRequest } from '../index';
import type { ToolMessage } from '@keel/provider';
import { scriptedModel, asComplete } from '../testing/index';

/** The tool message of a request (the latest one). */
function lastToolMessage(request: ModelRequest | undefined): ToolMessage {
  const found = request?.messages.filter((message): message is ToolMessage => message.role === 'tool').at(-1);
  if (!found) throw new Error('the request has no tool message');
  return found;
}

/** Resolves once `count` parties have arrived; rejects if they do not all arrive in time (tools ran one after another). */
function barrier(count: number) {
  let arrived = 0;
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return {
    arrive(): Promise<void> {
      arrived++;
      if (arrived === count) open();
      return Promise.race([
        opened,
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`only ${arrived} of ${count} tools started: they did not run concurrently`)), 2000).unref()),
      ]);
    },
  };
}

describe('ReAct loop', () => {
  it('returns a single final answer', async () => {
    const model = scriptedModel('Paris is the capital of France.');
    const agent = Agent.create({ provider: model, model: 'm' }).build();

    const result = asComplete(await agent.run('What is the capital of France?'));

    expect(result.text).toBe('Paris is the capital of France.');
    expect(result.value).toBe(result.text);
    expect(result.steps).toHaveLength(1);
    expect(result.provenance).toBe('model');
    expect(result.finishReason).toBe('stop');
    expect(result.messages).toEqual([
      { role: 'user', content: 'What is the capital of France?' },
      { role: 'assistant', content: [{ type: 'text', text: 'Paris is the capital of France.' }] },
    ]);
    expect(model.calls).toBe(1);
  });

  it('runs two tool calls of one turn concurrently and appends their results in call order', async () => {
    const gate = barrier(2);
    const finished: string[] = [];
    const slow = tool({
      name: 'slow',
      description: 'waits for the other tool, then a little longer',
      input: Type.Object({}),
      execute: async () => {
        await gate.arrive();
        await new Promise((resolve) => setTimeout(resolve, 5));
        finished.push('slow');
        return 'slow result';
      },
    });
    const fast = tool({
      name: 'fast',
      description: 'waits for the other tool',
      input: Type.Object({}),
      execute: async () => {
        await gate.arrive();
        finished.push('fast');
        return 'fast result';
      },
    });
    const model = scriptedModel([
      { toolCalls: [{ id: 'first', name: 'slow', arguments: {} }, { id: 'second', name: 'fast', arguments: {} }] },
      'both done',
    ]);
    const agent = Agent.create({ provider: model, model: 'm' }).tools([slow, fast]).build();

    const result = await agent.run('go');

    expect(finished).toEqual(['fast', 'slow']);
    expect(result.text).toBe('both done');
    const toolMessages = result.messages.filter((message) => message.role === 'tool');
    expect(toolMessages).toHaveLength(1);
    expect(toolMessages[0]).toEqual({
      role: 'tool',
      content: [
        { type: 'tool-result', toolCallId: 'first', toolName: 'slow', output: 'slow result', isError: false },
        { type: 'tool-result', toolCallId: 'second', toolName: 'fast', output: 'fast result', isError: false },
      ],
    });
    expect(result.toolCalls.map((record) => record.toolCallId)).toEqual(['first', 'second']);
    expect(lastToolMessage(model.requests[1]).content.map((part) => part.toolCallId)).toEqual(['first', 'second']);
  });

  it('turns an unknown tool into an unknown-tool error result the model sees, and continues', async () => {
    const lookup = tool({ name: 'lookup', description: 'looks things up', input: Type.Object({}), execute: () => 'found' });
    const model = scriptedModel([{ toolCalls: [{ id: 't1', name: 'search_web', arguments: { q: 'x' } }] }, 'I could not search.']);
    const agent = Agent.create({ provider: model, model: 'm' }).tool(lookup).build();

    const result = await agent.run('search');

    expect(result.text).toBe('I could not search.');
    expect(result.toolCalls).toHaveLength(1);
    expect(result.toolCalls[0]).toMatchObject({ toolCallId: 't1', toolName: 'search_web', isError: true, errorCode: 'unknown-tool' });
    const part = lastToolMessage(model.requests[1]).content[0];
    expect(part?.isError).toBe(true);
    expect(part?.toolCallId).toBe('t1');
    expect(part?.output).toContain('unknown-tool');
    expect(part?.output).toContain('search_web');
    expect(part?.output).toContain('lookup');
    expect(model.calls).toBe(2);
  });
});

describe('ReAct loop', () => {
  it('turns a throwing tool into a tool-error result with its message, without retrying it', async () => {
    let executions = 0;
    const flaky = tool({
      name: 'flaky',
      description: 'always fails',
      input: Type.Object({}),
      execute: () => {
        executions++;
        throw new Error('database is down');
      },
    });
    const model = scriptedModel([{ toolCalls: [{ id: 't1', name: 'flaky', arguments: {} }] }, 'The database is down.']);
    const agent = Agent.create({ provider: model, model: 'm' }).tool(flaky).build();

    const result = await agent.run('query');

    expect(result.text).toBe('The database is down.');
    expect(executions).toBe(1);
    expect(result.toolCalls[0]).toMatchObject({ isError: true, errorCode: 'tool-error' });
    const part = lastToolMessage(model.requests[1]).content[0];
    expect(part?.isError).toBe(true);
    expect(part?.output).toContain('tool-error');
    expect(part?.output).toContain('database is down');
    expect(model.calls).toBe(2);
  });

  it('throws MaxStepsExceededError carrying the steps, tool calls and usage so far', async () => {
    let executions = 0;
    const again = tool({ name: 'again', description: 'd', input: Type.Object({}), execute: () => `run ${++executions}` });
    const model = scriptedModel((_request, call) => ({
      toolCalls: [{ id: `c${call}`, name: 'again', arguments: {} }],
      usage: { inputTokens: 10, outputTokens: 2 },
    }));
    const agent = Agent.create({ provider: model, model: 'm', maxSteps: 3 }).tool(again).build();

    const error = await agent.run('loop forever').then(
      () => undefined,
      (thrown: unknown) => thrown,
    );

    expect(MaxStepsExceededError.isInstance(error)).toBe(true);
    const exceeded = error as MaxStepsExceededError;
    expect(exceeded.maxSteps).toBe(3);
    expect(exceeded.message).toContain('maxSteps (3)');
    expect(exceeded.partial.steps.map((step) => step.step)).toEqual([1, 2, 3]);
    expect(exceeded.partial.toolCalls.map((record) => record.toolCallId)).toEqual(['c1', 'c2', 'c3']);
    expect(exceeded.partial.toolCalls.map((record) => record.output)).toEqual(['run 1', 'run 2', 'run 3']);
    expect(exceeded.partial.usage).toMatchObject({ inputTokens: 30, outputTokens: 6, modelCalls: 3 });
    expect(exceeded.partial.attempts).toHaveLength(3);
    expect(exceeded.partial.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant', 'tool']);
    expect(model.calls).toBe(3);
  });

  it('gives the tool its validated, typed input and its context', async () => {
    const seen: { city: string; days: number; units: 'c' | 'f' }[] = [];
    const contexts: { step: number; toolCallId: string; runId: string }[] = [];
    const forecast = tool({
      name: 'forecast',
      description: 'weather forecast',
      input: Type.Object({ city: Type.String(), days: Type.Integer({ minimum: 1 }), units: Type.Union([Type.Literal('c'), Type.Literal('f')]) }),
      execute: (input, context) => {
        const days: number = input.days;
        seen.push(input);
        contexts.push({ step: context.step, toolCallId: context.toolCallId, runId: context.runId });
        return `${input.city}: ${days} days in ${input.units}`;
      },
    });
    const model = scriptedModel([{ toolCalls: [{ id: 'w1', name: 'forecast', arguments: { city: 'Oslo', days: 2, units: 'c' } }] }, 'Cold.']);
    const agent = Agent.create({ provider: model, model: 'm' }).tool(forecast).build();

    const result = await agent.run('weather?', { runId: 'run-typed' });

    expect(seen).toEqual([{ city: 'Oslo', days: 2, units: 'c' }]);
    expect(contexts).toEqual([{ step: 1, toolCallId: 'w1', runId: 'run-typed' }]);
    expect(result.toolCalls[0]?.output).toBe('Oslo: 2 days in c');
  });
});

describe('ReAct loop', () => {
  it('does not execute a tool with invalid input when re-asks are off', async () => {
    let executions = 0;
    const forecast = tool({
      name: 'forecast',
      description: 'weather forecast',
      input: Type.Object({ days: Type.Integer() }),
      retries: 0,
      execute: () => {
        executions++;
        return 'ok';
      },
    });
    const model = scriptedModel([{ toolCalls: [{ id: 'w1', name: 'forecast', arguments: { days: 'two' } }] }, 'Sorry.']);
    const agent = Agent.create({ provider: model, model: 'm' }).tool(forecast).build();

    const result = await agent.run('weather?');

    expect(executions).toBe(0);
    expect(result.toolCalls[0]).toMatchObject({ isError: true, errorCode: 'validation-failed' });
    expect(lastToolMessage(model.requests[1]).content[0]?.output).toContain('validation-failed');
  });

  it('sends object outputs as JSON and strings as they are', async () => {
    const structured = tool({ name: 'structured', description: 'd', input: Type.Object({}), execute: () => ({ ok: true, items: [1, 2], nested: { a: 'b' } }) });
    const plain = tool({ name: 'plain', description: 'd', input: Type.Object({}), execute: () => 'already "text"' });
    const model = scriptedModel([
      { toolCalls: [{ id: 's', name: 'structured', arguments: {} }, { id: 'p', name: 'plain', arguments: {} }] },
      'done',
    ]);
    const agent = Agent.create({ provider: model, model: 'm' }).tools([structured, plain]).build();

    await agent.run('go');

    const outputs = lastToolMessage(model.requests[1]).content.map((part) => part.output);
    expect(outputs).toEqual(['{"ok":true,"items":[1,2],"nested":{"a":"b"}}', 'already "text"']);
    expect(JSON.parse(outputs[0] ?? '')).toEqual({ ok: true, items: [1, 2], nested: { a: 'b' } });
  });

  it('adds up usage over every model call', async () => {
    const echo = tool({ name: 'echo', description: 'd', input: Type.Object({}), execute: () => 'e' });
    const model = scriptedModel([
      { toolCalls: [{ name: 'echo', arguments: {} }], usage: { inputTokens: 10, outputTokens: 3, cacheReadTokens: 2, cacheWriteTokens: 0 } },
      { text: 'final', usage: { inputTokens: 20, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 1 } },
    ]);
    const agent = Agent.create({ provider: model, model: 'm' }).tool(echo).build();

    const result = await agent.run('go');

    expect(result.usage).toEqual({ inputTokens: 30, outputTokens: 8, cacheReadTokens: 2, cacheWriteTokens: 1, totalTokens: 41, modelCalls: 2 });
    expect(result.attempts.map((attempt) => attempt.usage.inputTokens)).toEqual([10, 20]);
    expect(result.steps.map((step) => step.modelCalls)).toEqual([1, 1]);
  });

  it('does not mutate the caller’s input messages', async () => {
    const echo = tool({ name: 'echo', description: 'd', input: Type.Object({ v: Type.String() }), execute: (input) => input.v });
    const model = scriptedModel([{ toolCalls: [{ name: 'echo', arguments: { v: 'x' } }] }, 'done']);
    const agent = Agent.create({ provider: model, model: 'm' }).tool(echo).build();
    const input: Message[] = [
      { role: 'user', content: 'earlier question' },
      { role: 'assistant', content: [{ type: 'text', text: 'earlier answer' }] },
      { role: 'user', content: 'now echo x' },
    ];
    const before = structuredClone(input);
    Object.freeze(input);
    for (const message of input) Object.freeze(message);

    const result = await agent.run(input);

    expect(input).toEqual(before);
    expect(input).toHaveLength(3);
    expect(result.messages.slice(0, 3)).toEqual(before);
    expect(result.messages).toHaveLength(6);
    expect(result.messages[0]).not.toBe(input[0]);
  });
});

describe('system messages in the input', () => {
  it('are sent as part of the system prompt, after the agent’s, and never kept', async () => {
    const model = scriptedModel('ok');
    const agent = Agent.create({ provider: model, model: 'm' }).system('Be brief.').build();
    const result = await agent.run([
      { role: 'system', content: 'Answer in French.' },
      { role: 'user', content: 'Hello' },
    ]);
    expect(model.requests[0]?.system).toBe('Be brief.\n\nAnswer in French.');
    expect(model.requests[0]?.messages).toEqual([{ role: 'user', content: 'Hello' }]);
    expect(result.messages.some((message) => message.role === 'system')).toBe(false);
  });
});

describe('ends of a run', () => {
  it('when one tool call of a turn fails the run, its siblings settle before the run ends', async () => {
    const order: string[] = [];
    const slow = tool({
      name: 'slow',
      description: 'slow',
      input: Type.Object({}),
      execute: async () => {
        await new Promise((resolve) => setTimeout(resolve, 30));
        order.push('slow done');
        return 'ok';
      },
    });
    const strict = tool({ name: 'strict', description: 'strict', input: Type.Object({ n: Type.Number() }), execute: () => 'ok' });
    const model = scriptedModel([
      { toolCalls: [{ name: 'slow', arguments: {} }, { name: 'strict', arguments: { n: 'x' } }] },
      Object.assign(new Error('invalid key'), { errorKind: 'auth' }),
    ]);
    const agent = Agent.create({ provider: model, model: 'm' })
      .tools([slow, strict])
      .on('run.end', () => void order.push('run.end'))
      .build();
    await expect(agent.run('go')).rejects.toSatisfy(ReliabilityFailFastError.isInstance);
    expect(order).toEqual(['slow done', 'run.end']);
  });

  it("a rule accepting a failed call with 'ok' ends the run with no text and no value", async () => {
    const model = scriptedModel([Object.assign(new Error('upstream down'), { errorKind: 'server-error' })]);
    const result = await Agent.create({ provider: model, model: 'm' })
      .reliability({ postDecide: [{ kind: 'tolerate', then: 'accept', when: (scope) => scope.errorKind === 'server-error' }] })
      .build()
      .run('hi');
    expect(result).toMatchObject({ text: '', value: undefined, finishReason: 'error' });
    expect(result.attempts.map((attempt) => attempt.errorKind)).toEqual(['server-error']);
  });
});
