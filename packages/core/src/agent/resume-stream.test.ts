import { describe, expect, it } from 'vitest';
import { RunStateError } from '../index';
import { refundDesk } from '../testing/refund-desk';
import type { AgentStreamPart } from '../contracts/stream-part';
import type { UIMessageChunk } from './ui-message-chunk';

async function suspendedState(agent: ReturnType<typeof refundDesk>['agent']): Promise<unknown> {
  const result = await agent.stream('refund A7').result;
  if (result.status !== 'suspended') throw new Error('expected a suspension');
  return JSON.parse(JSON.stringify(result.state));
}

describe('agent.resumeStream', () => {
  it('streams the resumed run: the approved call, its result, the answer and the result part', async () => {
    const { agent, model, refunds } = refundDesk();
    const state = await suspendedState(agent);
    refunds.length = 0;
    const parts: AgentStreamPart[] = [];
    for await (const part of agent.resumeStream(state, { approve: ['r1'] })) parts.push(part);
    expect(refunds).toEqual(['A7']);
    expect(parts.find((part) => part.type === 'tool-result')).toMatchObject({ record: { toolCallId: 'r1', output: 'refunded A7' } });
    expect(parts.filter((part) => part.type === 'text-delta').map((part) => part.text).join('')).toBe('Refunded A7.');
    const last = parts.at(-1);
    expect(last?.type === 'result' && last.result.status).toBe('complete');
    expect(model.calls).toBe(2);
  });

  it('is a UI message stream and a response like stream()', async () => {
    const { agent } = refundDesk();
    const state = await suspendedState(agent);
    const body = await agent.resumeStream(state, { reject: [{ id: 'r1', reason: 'too much' }] }).toUIMessageStreamResponse().text();
    const chunks = body
      .split('\n\n')
      .filter((event) => event.startsWith('data: {'))
      .map((event) => JSON.parse(event.slice('data: '.length)) as UIMessageChunk);
    expect(chunks[0]).toEqual({ type: 'start' });
    // A call a person rejected is denied, as the AI SDK shows it.
    expect(chunks.find((chunk) => chunk.type === 'tool-output-denied')).toEqual({ type: 'tool-output-denied', toolCallId: 'r1' });
    expect(chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' });
  });

  it('delivers a refused state as the stream error, running nothing', async () => {
    const { agent, model } = refundDesk();
    const state = await suspendedState(agent);
    const stream = agent.resumeStream(state, { approve: ['not-pending'] });
    await expect(stream.result).rejects.toSatisfy((error) => RunStateError.isInstance(error) && error.problem === 'bad-decisions');
    expect(model.calls).toBe(1);
    // The state was not spent: a correct resume follows.
    expect((await agent.resumeStream(state, { approve: ['r1'] }).result).status).toBe('complete');
  });
});
