import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { Agent, tool } from '../index';
import { scriptedModel } from '../testing/index';
import type { AgentStreamPart } from '../contracts/stream-part';
import type { UIMessageChunk } from './ui-message-chunk';

async function read<T>(stream: ReadableStream<T>): Promise<T[]> {
  const reader = stream.getReader();
  const chunks: T[] = [];
  for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
  return chunks;
}

const lookup = tool({ name: 'lookup', description: 'an order', input: Type.Object({ order: Type.String() }), execute: ({ order }) => `${order}: paid $50` });

/** A dispatcher that calls `desk`, which calls `lookup` and `clerk` (an agent too): three levels. */
function dispatcher() {
  const clerk = Agent.create({ provider: scriptedModel(['Filed.']), model: 'm' }).build();
  const deskModel = scriptedModel([
    { text: 'Looking it up.', toolCalls: [{ id: 'd1', name: 'lookup', arguments: { order: 'A7' } }, { id: 'd2', name: 'clerk', arguments: { message: 'file A7' } }] },
    'A7 was paid $50 and is filed.',
  ]);
  const desk = Agent.create({ provider: deskModel, model: 'm' }).tool(lookup).tool(clerk.asTool({ name: 'clerk', description: 'files things' })).build();
  const model = scriptedModel([{ toolCalls: [{ id: 'p1', name: 'desk', arguments: { message: 'order A7?' } }] }, 'Paid and filed.']);
  return Agent.create({ provider: model, model: 'm' }).tool(desk.asTool({ name: 'desk', description: 'the refund desk' })).build();
}

describe('an agent called as a tool, streamed through its parent', () => {
  it('forwards its parts as agent-parts naming the agent, its depth and the call that runs it', async () => {
    const stream = dispatcher().stream('order A7?');
    const parts: AgentStreamPart<string>[] = [];
    for await (const part of stream) parts.push(part);
    const nested = parts.flatMap((part) => (part.type === 'agent-part' ? [part] : []));
    const desk = nested.filter((part) => part.agent.name === 'desk');
    expect(desk.every((part) => part.agent.depth === 1 && part.agent.toolCallId === 'p1')).toBe(true);
    expect(desk.map((part) => part.part.type === 'text-delta' && part.part.text).filter(Boolean).join('')).toBe('Looking it up.A7 was paid $50 and is filed.');
    expect(desk.some((part) => part.part.type === 'tool-result' && part.part.record.toolName === 'lookup')).toBe(true);
    const clerk = nested.filter((part) => part.agent.name === 'clerk');
    expect(clerk.length).toBeGreaterThan(0);
    expect(clerk.every((part) => part.agent.depth === 2 && part.agent.toolCallId === 'd2' && part.part.type !== 'agent-part')).toBe(true);
    expect(new Set(clerk.map((part) => part.agent.runId)).size).toBe(1);
    // The parent's own text is its own; budgets and usage are as before: every model call of the tree counted once.
    const result = await stream.result;
    expect(result.text).toBe('Paid and filed.');
    expect(result.usage.modelCalls).toBe(5);
  });

  it('shows them in the UI stream as data-agent parts, outside the answer', async () => {
    const chunks: UIMessageChunk<string>[] = await read(dispatcher().stream('order A7?').toUIMessageStream());
    const texts = chunks.flatMap((chunk) => (chunk.type === 'data-agent-text' ? [chunk] : []));
    expect(texts.at(-1)?.data).toEqual({ agent: 'desk', depth: 1, toolCallId: 'p1', text: 'A7 was paid $50 and is filed.' });
    expect(texts.some((chunk) => chunk.data.agent === 'clerk' && chunk.data.depth === 2 && chunk.data.text === 'Filed.')).toBe(true);
    const tools = chunks.flatMap((chunk) => (chunk.type === 'data-agent-tool' ? [chunk] : []));
    expect(tools.map((chunk) => [chunk.data.agent, chunk.data.call.toolName, chunk.data.call.state])).toEqual([
      ['desk', 'lookup', 'input-available'],
      ['desk', 'clerk', 'input-available'],
      ['desk', 'lookup', 'output-available'],
      ['desk', 'clerk', 'output-available'],
    ]);
    const answer = chunks.map((chunk) => (chunk.type === 'text-delta' ? chunk.delta : '')).join('');
    expect(answer).toBe('Paid and filed.');
    expect(chunks.filter((chunk) => chunk.type === 'tool-output-available')).toEqual([{ type: 'tool-output-available', toolCallId: 'p1', output: 'A7 was paid $50 and is filed.' }]);
    expect(chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' });
  });

  it('a run that does not stream forwards nothing and keeps its result', async () => {
    const result = await dispatcher().run('order A7?');
    expect(result.text).toBe('Paid and filed.');
    expect(result.usage.modelCalls).toBe(5);
  });
});
