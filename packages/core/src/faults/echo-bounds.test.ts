import { TRUNCATION_MARKER } from '@keel/reliability/internal';
import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { Agent, type AgentEvents, type ReliabilityFailFastError, tool } from '../index';
import { type ToolCallPart } from '@keel/provider';
import { scriptedModel } from '../testing/index';

/** Everything echoed is bounded, and model-chosen keys never put a raw newline in a message. */

const FIVE_MB = 'x'.repeat(5 * 1024 * 1024);

describe('tool re-ask echoes', () => {
  it('a 5 MB invalid argument is echoed within maxFeedbackTokens, with the marker', async () => {
    const model = scriptedModel([{ toolCalls: [{ id: 'a', name: 'store', arguments: { n: FIVE_MB } }] }, { toolCalls: [{ id: 'a', name: 'store', arguments: { n: 1 } }] }, 'done']);
    const store = tool({ name: 'store', description: 'stores', input: Type.Object({ n: Type.Number() }), execute: () => 'ok' });
    const agent = Agent.create({ provider: model, model: 'm' }).tool(store).outputSchema(Type.String(), { maxFeedbackTokens: 500 }).build();
    await agent.run('go').catch(() => undefined);
    const reask = model.requests[1];
    const parts = (reask?.messages ?? []).flatMap((message) => (message.ephemeral && typeof message.content !== 'string' ? [...message.content] : []));
    const echoed = parts.find((part): part is ToolCallPart => part.type === 'tool-call');
    const argumentsText = echoed?.arguments;
    if (typeof argumentsText !== 'string') throw new Error('expected the echoed arguments as cut text');
    expect(argumentsText.length).toBeLessThanOrEqual(500 * 4);
    expect(argumentsText).toContain(TRUNCATION_MARKER);
    expect(JSON.stringify(reask).length).toBeLessThan(20_000);
  });
});

describe('raw output in attempt records and events', () => {
  const huge = `{"n": "${'y'.repeat(100_000)}"}`;

  it('is capped at 16 KB by default, with the marker', async () => {
    const failed: AgentEvents['validation.failed'][] = [];
    const agent = Agent.create({ provider: scriptedModel(huge), model: 'm' })
      .outputSchema(Type.Object({ n: Type.Number() }), { maxRetries: 1 })
      .on('validation.failed', (payload) => void failed.push(payload))
      .build();
    const error = (await agent.run('go').catch((thrown: unknown) => thrown)) as ReliabilityFailFastError;
    expect(error.attempts).toHaveLength(2);
    for (const attempt of error.attempts) {
      expect(attempt.rawOutput?.length).toBeLessThanOrEqual(16_384);
      expect(attempt.rawOutput).toContain(TRUNCATION_MARKER);
    }
    expect(failed).toHaveLength(2);
    for (const event of failed) expect(event.rawOutput.length).toBeLessThanOrEqual(16_384);
  });

  it('follows maxRawOutputChars', async () => {
    const agent = Agent.create({ provider: scriptedModel(huge), model: 'm', maxRawOutputChars: 1000 }).outputSchema(Type.Object({ n: Type.Number() }), { maxRetries: 0 }).build();
    const error = (await agent.run('go').catch((thrown: unknown) => thrown)) as ReliabilityFailFastError;
    expect(error.attempts[0]?.rawOutput?.length).toBeLessThanOrEqual(1000);
  });
});

describe('model-chosen keys with newlines', () => {
  it('never reach an error message or event raw', async () => {
    const forged = 'colour\nERROR forged log line';
    const output = JSON.stringify({ n: 1, [forged]: 'x' });
    const messages: string[] = [];
    const agent = Agent.create({ provider: scriptedModel(output), model: 'm' })
      .outputSchema(Type.Object({ n: Type.Number() }, { additionalProperties: false }), { maxRetries: 0 })
      .on('validation.failed', (payload) => void messages.push(payload.message, payload.pathText ?? ''))
      .on('reliability.fail-fast', (payload) => void messages.push(payload.label ?? ''))
      .build();
    const error = (await agent.run('go').catch((thrown: unknown) => thrown)) as ReliabilityFailFastError;
    messages.push(error.message);
    expect(error.message).toContain('colour\\nERROR forged log line');
    for (const message of messages) expect(message).not.toContain('\n');
  });
});
