import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { Agent, tool } from '../index';
import { scriptedModel } from '../testing/index';
import type { UIMessageChunk } from './ui-message-chunk';

const status = tool({ name: 'status', description: 'the status of the deploy', input: Type.Object({}), execute: () => 'stuck' });

/** A model that checks the same status with a preamble each turn until it is told it is looping, then answers. */
function loopingAgent() {
  const model = scriptedModel((request) => {
    const nudged = request.messages.some((message) => message.role === 'user' && message.ephemeral === true);
    if (nudged) return 'The deploy is stuck.';
    const step = request.messages.filter((message) => message.role === 'tool').length + 1;
    return { text: `Checking again (${step}).`, toolCalls: [{ id: `c${step}`, name: 'status', arguments: {} }] };
  });
  return Agent.create({ provider: model, model: 'm', maxSteps: 10 }).tool(status).build();
}

const textOf = (chunks: readonly UIMessageChunk[]) => chunks.map((chunk) => (chunk.type === 'text-delta' ? chunk.delta : '')).join('|');

describe('text the run does not keep never reaches the UI stream or textStream', () => {
  it('leaves out the preamble of a turn the loop rule rejected (UI stream)', async () => {
    const stream = loopingAgent().stream('is the deploy done?');
    const chunks: UIMessageChunk[] = [];
    const reader = stream.toUIMessageStream().getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
    const result = await stream.result;
    const kept = result.messages.flatMap((message) => (message.role === 'assistant' ? message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])) : []));
    // The fourth turn repeated the call a third time: it was nudged, its text is not kept.
    expect(kept.join('|')).not.toContain('Checking again (4)');
    expect(textOf(chunks)).not.toContain('Checking again (4)');
    expect(textOf(chunks).replaceAll('|', '')).toBe(kept.join(''));
  });

  it('leaves it out of textStream too', async () => {
    const stream = loopingAgent().stream('is the deploy done?');
    const deltas: string[] = [];
    for await (const delta of stream.textStream) deltas.push(delta);
    expect(deltas.join('')).not.toContain('Checking again (4)');
    expect(deltas.join('')).toContain('The deploy is stuck.');
  });
});
