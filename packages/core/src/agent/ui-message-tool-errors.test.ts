import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { Agent, tool, type ToolCallRecord } from '../index';
import { scriptedModel } from '../testing/index';
import type { UIMessageChunk } from './ui-message-chunk';

const SECRET = 'connect ECONNREFUSED postgres://admin:hunter2@db.internal:5432/orders';
const lookup = tool({
  name: 'lookup',
  description: 'looks an order up',
  input: Type.Object({ order: Type.String() }),
  execute: () => {
    throw new Error(SECRET);
  },
});

function failingAgent() {
  const model = scriptedModel([{ toolCalls: [{ id: 'l1', name: 'lookup', arguments: { order: 'A7' } }] }, 'I could not look the order up.']);
  return Agent.create({ provider: model, model: 'm' }).tool(lookup).build();
}

async function read(stream: ReadableStream<UIMessageChunk>): Promise<UIMessageChunk[]> {
  const chunks: UIMessageChunk[] = [];
  const reader = stream.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
  return chunks;
}

describe("a tool's error in the UI stream", () => {
  it('is masked by default: the thrown message never reaches the client', async () => {
    const stream = failingAgent().stream('where is A7?');
    const body = await stream.toUIMessageStreamResponse().text();
    expect(body).not.toContain('hunter2');
    expect(body).toContain('"type":"tool-output-error","toolCallId":"l1","errorText":"An error occurred."');
    // The model and the records still have it.
    expect((await stream.result).toolCalls[0]?.output).toContain('hunter2');
  });

  it('is what onError makes of its record', async () => {
    const seen: unknown[] = [];
    const onError = (error: unknown) => {
      seen.push(error);
      return `the tool ${(error as ToolCallRecord).toolName} failed`;
    };
    const chunks = await read(failingAgent().stream('where is A7?').toUIMessageStream({ onError }));
    expect(chunks.find((chunk) => chunk.type === 'tool-output-error')).toEqual({ type: 'tool-output-error', toolCallId: 'l1', errorText: 'the tool lookup failed' });
    expect(seen).toMatchObject([{ toolCallId: 'l1', toolName: 'lookup', errorCode: 'tool-error' }]);
  });
});
