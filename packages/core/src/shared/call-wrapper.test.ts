import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { Agent, tool } from '../index';
import type { ModelProvider, WrappedCall } from '../index';
import { scriptedModel } from '../testing/index';

/** What the code inside a call sees of the wrappers around it (as a tracing context would). */
let inside: string[] = [];

/** A wrapper that marks the calls it wraps, for the synchronous start of the wrapped code. */
const marking = (name: string, seen: WrappedCall[]) => <T>(call: WrappedCall, proceed: () => T): T => {
  seen.push(call);
  const before = inside;
  inside = [...inside, name];
  try {
    return proceed();
  } finally {
    inside = before;
  }
};

describe('builder.wrapCalls()', () => {
  it('wraps every model call and tool execution, the first wrapper outermost', async () => {
    const model = scriptedModel([{ toolCalls: [{ id: 'call-1', name: 'lookup', arguments: { id: 7 } }] }, 'done']);
    const seenByModel: string[][] = [];
    const provider: ModelProvider = { ...model, generate: (request, options) => (seenByModel.push(inside), model.generate(request, options)) };
    delete (provider as { stream?: unknown }).stream;
    const seenByTool: string[][] = [];
    const lookup = tool({ name: 'lookup', description: 'd', input: Type.Object({ id: Type.Number() }), execute: () => (seenByTool.push(inside), 'found') });
    const outer: WrappedCall[] = [];
    const inner: WrappedCall[] = [];
    const agent = Agent.create({ provider, model: 'm' }).tool(lookup).wrapCalls(marking('outer', outer)).wrapCalls(marking('inner', inner)).build();

    const result = await agent.run('hi');
    expect(result.text).toBe('done');
    expect(result.toolCalls[0]).toMatchObject({ output: 'found', isError: false });
    expect(seenByModel).toEqual([['outer', 'inner'], ['outer', 'inner']]);
    expect(seenByTool).toEqual([['outer', 'inner']]);
    expect(outer).toEqual([
      { type: 'model', runId: result.runId, step: 1, attempt: 1 },
      { type: 'tool', runId: result.runId, step: 1, toolCallId: 'call-1', toolName: 'lookup' },
      { type: 'model', runId: result.runId, step: 2, attempt: 1 },
    ]);
    expect(inner).toEqual(outer);
    expect(inside).toEqual([]);
  });

  it('names the tool call a re-ask is for', async () => {
    const model = scriptedModel([
      { toolCalls: [{ id: 'call-1', name: 'lookup', arguments: { id: 'seven' } }] },
      { toolCalls: [{ id: 'call-1', name: 'lookup', arguments: { id: 7 } }] },
      'done',
    ]);
    const lookup = tool({ name: 'lookup', description: 'd', input: Type.Object({ id: Type.Number() }), execute: () => 'found' });
    const seen: WrappedCall[] = [];
    await Agent.create({ provider: model, model: 'm' }).tool(lookup).wrapCalls(marking('w', seen)).build().run('hi');
    expect(seen.filter((call) => call.type === 'model').map((call) => (call.type === 'model' ? call.toolCallId : 'not a model call'))).toEqual([undefined, 'call-1', undefined]);
  });

  it('a wrapper that throws fails the call it wraps, as the call would', async () => {
    const lookup = tool({ name: 'lookup', description: 'd', input: Type.Object({}), execute: () => 'found' });
    const model = scriptedModel([{ toolCalls: [{ id: 'call-1', name: 'lookup', arguments: {} }] }, 'done']);
    const agent = Agent.create({ provider: model, model: 'm' })
      .tool(lookup)
      .wrapCalls((call, proceed) => {
        if (call.type === 'tool') throw new Error('wrapper broke');
        return proceed();
      })
      .build();
    const result = await agent.run('hi');
    expect(result.toolCalls[0]).toMatchObject({ isError: true, errorCode: 'tool-error' });
    expect(result.text).toBe('done');
  });
});
