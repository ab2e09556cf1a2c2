import { Type } from '@sinclair/typebox';
import { describe, expect, it, vi } from 'vitest';
import { Agent, idShapeGuard, InMemoryStore, type Message, type ModelRequest, tool } from '../index';
import { type ToolMessage } from '@keel/provider';
import { type Script, type ScriptedTurn, scriptedModel } from '../testing/index';
import { recorder } from '../testing/event-recorder';

const PROJECT = '3f2b8c1e-9d4a-4e6b-8f1a-2c3d4e5f6a7b';
const DUE = '2026-05-03T00:00:00Z';

const CreateTask = Type.Object(
  {
    project_id: Type.String({ format: 'uuid' }),
    title: Type.String(),
    due_date: Type.String({ format: 'date-time' }),
    tags: Type.Optional(Type.Array(Type.String())),
  },
  { additionalProperties: false },
);

const VALID_ARGS = { project_id: PROJECT, title: 'Write the report', due_date: DUE };
const MISSING_PROJECT = { title: 'Write the report', due_date: DUE };
const TAGS_AS_NUMBER = { ...VALID_ARGS, tags: 5 };
const EXTRA_FIELD = { ...VALID_ARGS, colour: 'red' };

const SHAPE = ' (expected shape of the object: {project_id: string, title: string, due_date: string, tags?: string[]})';
const MISSING_LINE = `- 'project_id': required field is missing — provide a value${SHAPE}`;

/** A create_task tool whose executions are recorded. */
function createTaskTool(options: { retries?: number; execute?: (input: unknown) => unknown } = {}) {
  const execute = vi.fn(options.execute ?? ((input: unknown) => ({ id: 'task-1', ...(input as object) })));
  const createTask = tool({
    name: 'create_task',
    description: 'Creates a task in a project',
    input: CreateTask,
    execute: (input) => execute(input),
    ...(options.retries === undefined ? {} : { retries: options.retries }),
  });
  return { createTask, execute };
}

const call = (args: unknown, id = 'call_a'): ScriptedTurn => ({ toolCalls: [{ id, name: 'create_task', arguments: args }] });
const DONE = 'The task is created.';

function setup(script: Script, options: { retries?: number; execute?: (input: unknown) => unknown } = {}) {
  const model = scriptedModel(script);
  const { createTask, execute } = createTaskTool(options);
  const events = recorder('tool.validation', 'tool.re-ask', 'model.request');
  const builder = events.attach(Agent.create({ provider: model, model: 'm' }).tool(createTask));
  return { model, execute, events, builder };
}

const requestAt = (requests: readonly ModelRequest[], index: number): ModelRequest => {
  const request = requests[index];
  if (!request) throw new Error(`no request #${index}`);
  return request;
};

/** The tool message the final step's request ends with: what the model was told about the call. */
const lastToolResult = (request: ModelRequest) => {
  const last = request.messages.at(-1);
  if (last?.role !== 'tool') throw new Error('the request does not end with a tool message');
  return (last as ToolMessage).content;
};

describe('tool-argument re-asks', () => {
  it('re-asks once for a missing field, then runs the tool once with the corrected arguments', async () => {
    const { model, execute, events, builder } = setup([call(MISSING_PROJECT), call(VALID_ARGS, 'call_ignored'), DONE]);
    const result = await builder.build().run('Add a task to write the report');

    expect(model.calls).toBe(3);
    expect(result.text).toBe(DONE);
    expect(execute).toHaveBeenCalledTimes(1);
    expect(execute).toHaveBeenCalledWith(VALID_ARGS);
    expect(events.of('tool.validation')).toEqual([expect.objectContaining({ toolCallId: 'call_a', outcome: 'corrected', retryCount: 1 })]);

    const reask = requestAt(model.requests, 1);
    expect(reask.toolChoice).toEqual({ type: 'tool', name: 'create_task' });
    expect(reask.messages).toHaveLength(3);
    expect(reask.messages[0]).toEqual({ role: 'user', content: 'Add a task to write the report' });
    const [assistant, feedback] = reask.messages.slice(-2);
    expect(assistant).toEqual({
      role: 'assistant',
      content: [{ type: 'tool-call', id: 'call_a', name: 'create_task', arguments: MISSING_PROJECT }],
      ephemeral: true,
    });
    expect(feedback).toMatchObject({
      role: 'tool',
      ephemeral: true,
      content: [{ type: 'tool-result', toolCallId: 'call_a', toolName: 'create_task', isError: true }],
    });
    expect((feedback as ToolMessage).content[0]?.output).toContain(MISSING_LINE);
    expect(result.attempts.map((attempt) => attempt.purpose)).toEqual(['step', 'tool-re-ask', 'step']);
  });

  it.each([
    ['a list given as a number', TAGS_AS_NUMBER, `- 'tags': expected list/array, got integer 5`],
    ['an unknown field', EXTRA_FIELD, `- 'colour': unknown field — remove it${SHAPE}`],
    ['a date-time that is not ISO', { ...VALID_ARGS, due_date: 'tomorrow' }, `- 'due_date': expected ISO date-time (e.g. '2026-05-03T00:00:00Z'), got "tomorrow"`],
  ])('re-asks once for %s with the exact feedback line', async (_name, bad, line) => {
    const { model, execute, events, builder } = setup([call(bad), call(VALID_ARGS), DONE]);
    await builder.build().run('Add a task to write the report');

    expect(model.calls).toBe(3);
    expect(execute).toHaveBeenCalledTimes(1);
    expect(execute).toHaveBeenCalledWith(VALID_ARGS);
    expect(events.of('tool.validation')[0]).toMatchObject({ outcome: 'corrected', retryCount: 1 });
    const reask = requestAt(model.requests, 1);
    expect(reask.toolChoice).toEqual({ type: 'tool', name: 'create_task' });
    const output = lastToolResult(reask)[0]?.output ?? '';
    expect(output.split('\n')).toContain(line);
    expect(reask.messages.slice(-2).every((message) => message.ephemeral === true)).toBe(true);
  });

  it('gives up after the retry budget with validation-failed sent to the model, and the run goes on', async () => {
    const { model, execute, events, builder } = setup([call(MISSING_PROJECT), call(TAGS_AS_NUMBER), call(EXTRA_FIELD), DONE]);
    const result = await builder.build().run('Add a task to write the report');

    // 1 first call + 2 re-asks for the tool call, then the final answer.
    expect(model.calls).toBe(4);
    expect(result.attempts.filter((attempt) => attempt.purpose === 'tool-re-ask')).toHaveLength(2);
    expect(execute).not.toHaveBeenCalled();
    expect(events.of('tool.validation')[0]).toMatchObject({ outcome: 'exhausted', retryCount: 2 });
    expect(events.of('tool.re-ask').map((event) => event.reAsk)).toEqual([1, 2]);
    const told = lastToolResult(requestAt(model.requests, 3))[0];
    expect(told?.isError).toBe(true);
    expect(told?.output).toMatch(/^Error \[validation-failed\]/);
    expect(told?.output).toContain(`- 'colour': unknown field — remove it${SHAPE}`);
    expect(result.text).toBe(DONE);
    expect(result.toolCalls[0]).toMatchObject({ errorCode: 'validation-failed', isError: true, arguments: EXTRA_FIELD });
  });

  it('never re-asks a tool whose own retries is 0', async () => {
    const { model, execute, events, builder } = setup([call(MISSING_PROJECT), DONE], { retries: 0 });
    const result = await builder.build().run('Add a task to write the report');

    expect(model.calls).toBe(2);
    expect(execute).not.toHaveBeenCalled();
    expect(events.of('tool.re-ask')).toHaveLength(0);
    expect(events.of('tool.validation')[0]).toMatchObject({ outcome: 'exhausted', retryCount: 0 });
    expect(result.toolCalls[0]?.errorCode).toBe('validation-failed');
  });

  it('never re-asks an unknown tool', async () => {
    const { model, execute, events, builder } = setup([{ toolCalls: [{ id: 'call_x', name: 'delete_project', arguments: { project_id: PROJECT } }] }, DONE]);
    const result = await builder.build().run('Delete the project');

    expect(model.calls).toBe(2);
    expect(execute).not.toHaveBeenCalled();
    expect(events.of('tool.re-ask')).toHaveLength(0);
    expect(result.toolCalls[0]).toMatchObject({ toolName: 'delete_project', isError: true, errorCode: 'unknown-tool' });
    expect(lastToolResult(requestAt(model.requests, 1))[0]?.output).toMatch(/^Error \[unknown-tool\]/);
  });
});

describe('tool-argument re-asks', () => {
  it('never re-asks a call a guard rejects', async () => {
    const { model, execute, events, builder } = setup([call({ ...VALID_ARGS, project_id: 'proj-123' }), DONE]);
    const result = await builder
      .guards([idShapeGuard({ fields: ['project_id'] })])
      .build()
      .run('Add a task to write the report');

    expect(model.calls).toBe(2);
    expect(execute).not.toHaveBeenCalled();
    expect(events.of('tool.re-ask')).toHaveLength(0);
    expect(events.of('tool.validation')).toHaveLength(0);
    expect(result.toolCalls[0]).toMatchObject({ isError: true, errorCode: 'fabricated-id' });
    expect(lastToolResult(requestAt(model.requests, 1))[0]?.output).toMatch(/^Error \[fabricated-id\]/);
  });

  it('rejects a fabricated id given on the retry with guard-rejected-on-retry', async () => {
    const { model, execute, events, builder } = setup([call(MISSING_PROJECT), call({ ...VALID_ARGS, project_id: 'proj-123' }), DONE]);
    const result = await builder
      .guards([idShapeGuard({ fields: ['project_id'] })])
      .build()
      .run('Add a task to write the report');

    expect(model.calls).toBe(3);
    expect(execute).not.toHaveBeenCalled();
    expect(events.of('tool.validation')[0]).toMatchObject({ outcome: 'guard-rejected-on-retry', retryCount: 1 });
    expect(result.toolCalls[0]).toMatchObject({ isError: true, errorCode: 'fabricated-id' });
    expect(result.toolCalls[0]?.output).toContain('fabricated-id');
    expect(lastToolResult(requestAt(model.requests, 2))[0]?.output).toMatch(/^Error \[fabricated-id\]/);
  });

  it('does not retry a tool that throws', async () => {
    const { model, execute, events, builder } = setup([call(VALID_ARGS), DONE], {
      execute: () => {
        throw new Error('the task service is down');
      },
    });
    const result = await builder.build().run('Add a task to write the report');

    expect(model.calls).toBe(2);
    expect(execute).toHaveBeenCalledTimes(1);
    expect(events.of('tool.re-ask')).toHaveLength(0);
    expect(result.toolCalls[0]).toMatchObject({ isError: true, errorCode: 'tool-error', output: 'Error [tool-error]: the task service is down' });
  });

  it('stops with redundant after one re-ask when the corrected call repeats the arguments', async () => {
    const { model, execute, events, builder } = setup([call(MISSING_PROJECT), call(MISSING_PROJECT), DONE]);
    const result = await builder.build().run('Add a task to write the report');

    expect(model.calls).toBe(3);
    expect(result.attempts.filter((attempt) => attempt.purpose === 'tool-re-ask')).toHaveLength(1);
    expect(execute).not.toHaveBeenCalled();
    expect(events.of('tool.validation')[0]).toMatchObject({ outcome: 'redundant', retryCount: 1 });
    expect(result.toolCalls[0]?.errorCode).toBe('validation-failed');
    expect(result.text).toBe(DONE);
  });

  it('reports gave-up when the re-ask reply does not call the tool', async () => {
    const { model, execute, events, builder } = setup([call(MISSING_PROJECT), 'I do not know the project id.', DONE]);
    const result = await builder.build().run('Add a task to write the report');

    expect(model.calls).toBe(3);
    expect(execute).not.toHaveBeenCalled();
    expect(events.of('tool.validation')[0]).toMatchObject({ outcome: 'gave-up', retryCount: 1 });
    expect(result.toolCalls[0]).toMatchObject({ isError: true, errorCode: 'validation-failed' });
    expect(result.text).toBe(DONE);
  });
});

describe('tool-argument re-asks', () => {
  it('keeps one record per logical call with the final arguments, and no retry trace in history or memory', async () => {
    const store = new InMemoryStore();
    const { builder } = setup([call(MISSING_PROJECT), call(TAGS_AS_NUMBER), call({ ...VALID_ARGS, tags: ['urgent'] }), DONE]);
    const result = await builder.memory(store).build().run('Add a task to write the report');
    const finalArgs = { ...VALID_ARGS, tags: ['urgent'] };

    expect(result.toolCalls).toHaveLength(1);
    const record = result.toolCalls[0];
    expect(record?.arguments).toEqual(finalArgs);
    expect(Object.keys(record ?? {}).sort()).toEqual(['arguments', 'durationMs', 'isError', 'output', 'step', 'toolCallId', 'toolName']);

    const expected: Message[] = [
      { role: 'user', content: 'Add a task to write the report' },
      { role: 'assistant', content: [{ type: 'tool-call', id: 'call_a', name: 'create_task', arguments: finalArgs }] },
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 'call_a', toolName: 'create_task', output: JSON.stringify({ id: 'task-1', ...finalArgs }), isError: false }],
      },
      { role: 'assistant', content: [{ type: 'text', text: DONE }] },
    ];
    expect(result.messages).toEqual(expected);
    const kept = await store.load('default');
    expect(kept).toEqual(expected);
    for (const text of [JSON.stringify(result.messages), JSON.stringify(kept)]) {
      expect(text).not.toContain('validation-failed');
      expect(text).not.toContain('"tags":"urgent"');
      expect(text).not.toContain('required field is missing');
    }
  });

  it('repairs two bad calls of one turn independently', async () => {
    const corrected: Record<string, unknown> = {
      call_1: { ...VALID_ARGS, title: 'First' },
      call_2: { ...VALID_ARGS, title: 'Second', tags: ['b'] },
    };
    const script = (request: ModelRequest): ScriptedTurn | string => {
      if (request.toolChoice?.type === 'tool') {
        const last = request.messages.at(-1) as ToolMessage;
        const id = last.content[0]?.toolCallId ?? '';
        return call(corrected[id], `reask_${id}`);
      }
      if (request.messages.length === 1) {
        return {
          toolCalls: [
            { id: 'call_1', name: 'create_task', arguments: { title: 'First', due_date: DUE } },
            { id: 'call_2', name: 'create_task', arguments: { project_id: PROJECT, title: 'Second', due_date: DUE, tags: 7 } },
          ],
        };
      }
      return DONE;
    };
    const { model, execute, events, builder } = setup(script);
    const result = await builder.build().run('Add two tasks');

    expect(model.calls).toBe(4);
    expect(execute).toHaveBeenCalledTimes(2);
    expect(execute).toHaveBeenCalledWith(corrected.call_1);
    expect(execute).toHaveBeenCalledWith(corrected.call_2);
    expect(events.of('tool.validation').map((event) => [event.toolCallId, event.outcome, event.retryCount]).sort()).toEqual([
      ['call_1', 'corrected', 1],
      ['call_2', 'corrected', 1],
    ]);
    const reasks = model.requests.filter((request) => request.toolChoice?.type === 'tool');
    expect(reasks).toHaveLength(2);
    for (const reask of reasks) {
      const assistant = reask.messages.at(-2);
      expect(assistant?.role === 'assistant' ? assistant.content : []).toHaveLength(1);
    }
    expect(result.toolCalls.map((record) => [record.toolCallId, record.arguments, record.isError])).toEqual([
      ['call_1', corrected.call_1, false],
      ['call_2', corrected.call_2, false],
    ]);
  });
});

describe('tool-argument re-asks', () => {
  it('passes raw arguments to a tool with validate: false', async () => {
    const received: unknown[] = [];
    const raw = tool({
      name: 'create_task',
      description: 'Creates a task in a project',
      input: CreateTask,
      validate: false,
      execute: (input) => {
        received.push(input);
        return 'ok';
      },
    });
    const model = scriptedModel([call({ name: 'not the schema', count: 3 }), DONE]);
    const events = recorder('tool.re-ask');
    const result = await events.attach(Agent.create({ provider: model, model: 'm' }).tool(raw)).build().run('Add a task');

    expect(model.calls).toBe(2);
    expect(received).toEqual([{ name: 'not the schema', count: 3 }]);
    expect(events.of('tool.re-ask')).toHaveLength(0);
    expect(result.toolCalls[0]).toMatchObject({ isError: false, output: 'ok' });
  });

  it('reports no-retry for a valid first call', async () => {
    const { model, execute, events, builder } = setup([call(VALID_ARGS), DONE]);
    await builder.build().run('Add a task to write the report');

    expect(model.calls).toBe(2);
    expect(execute).toHaveBeenCalledTimes(1);
    expect(events.of('tool.validation')).toEqual([expect.objectContaining({ outcome: 'valid', retryCount: 0 })]);
    expect(events.of('model.request').map((event) => event.toolChoice)).toEqual(['auto', 'auto']);
  });
});

describe('a crashing validator', () => {
  it('a tool whose validator crashes gives the model a validator-error result; the run goes on', async () => {
    const base = tool({ name: 'lookup', description: 'Looks up', input: Type.Object({}), execute: () => 'never' });
    const broken = {
      ...base,
      validator: {
        ...base.validator,
        validate: () => {
          throw new Error('validator bug');
        },
      },
    };
    const model = scriptedModel([{ toolCalls: [{ name: 'lookup', arguments: {} }] }, 'done']);
    const result = await Agent.create({ provider: model, model: 'm' }).tool(broken).build().run('go');
    expect(result.toolCalls[0]).toMatchObject({ isError: true, errorCode: 'validator-error' });
    expect(result.text).toBe('done');
  });

  it('coerces a unique, lossless mismatch with no re-ask; the tool and the kept call get the coerced arguments', async () => {
    const store = new InMemoryStore();
    const model = scriptedModel([call({ ...VALID_ARGS, tags: 'urgent' }), DONE]);
    const { createTask, execute } = createTaskTool();
    const result = await Agent.create({ provider: model, model: 'm' }).tool(createTask).memory(store).build().run('Add a task');

    expect(model.calls).toBe(2);
    const coerced = { ...VALID_ARGS, tags: ['urgent'] };
    expect(execute).toHaveBeenCalledWith(coerced);
    expect(result.toolCalls[0]).toMatchObject({ arguments: coerced, isError: false, coercions: [{ path: ['tags'], kind: 'single-to-array', from: 'urgent', to: ['urgent'] }] });
    const kept = result.messages.find((message) => message.role === 'assistant');
    expect(kept?.role === 'assistant' ? kept.content : []).toEqual([{ type: 'tool-call', id: 'call_a', name: 'create_task', arguments: coerced }]);
    const remembered = await store.load('default');
    expect(JSON.stringify(remembered)).toContain('"tags":["urgent"]');
  });

  it('re-asks instead with coerce: false', async () => {
    const model = scriptedModel([call({ ...VALID_ARGS, tags: 'urgent' }), call(VALID_ARGS), DONE]);
    const execute = vi.fn(() => 'ok');
    const createTask = tool({ name: 'create_task', description: 'Creates a task', input: CreateTask, coerce: false, execute });
    const result = await Agent.create({ provider: model, model: 'm' }).tool(createTask).build().run('Add a task');
    expect(model.calls).toBe(3);
    expect(execute).toHaveBeenCalledWith(VALID_ARGS, expect.anything());
    expect(result.toolCalls[0]).not.toHaveProperty('coercions');
  });
});
