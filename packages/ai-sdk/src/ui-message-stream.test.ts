import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { Agent, type ReliabilityRule, tool } from '@keel/core';
import { type ModelResponse } from '@keel/provider';
import { scriptedModel } from '@keel/core/test';
import { Type } from '@sinclair/typebox';
import { jsonSchema, Output, readUIMessageStream, stepCountIs, streamText, tool as aiTool, type UIMessage, type UIMessageChunk } from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { specUsage } from './testing/mock-results';

// The Done-when of chat UIs: the AI SDK's own UI stream reader reads a Keel stream (a run with
// re-asks and a tool call) into the same UI message the AI SDK's own stream gives for that turn.

const CITY = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false } as const;
const WEATHER = { type: 'object', properties: { city: { type: 'string' }, temp: { type: 'number' } }, required: ['city', 'temp'], additionalProperties: false } as const;
const ANSWER = '{"city":"Paris","temp":21}';
const lookUp = (city: string) => `${city}: 21 C, clear`;

/** The last state of the message a UI message stream builds, as `useChat` would hold it. */
async function lastMessage(stream: ReadableStream<UIMessageChunk>): Promise<UIMessage> {
  let last: UIMessage | undefined;
  for await (const message of readUIMessageStream({ stream, terminateOnError: true })) last = message;
  if (!last) throw new Error('the stream built no message');
  return last;
}

/** The message's parts, ids aside (tool call ids are the model's own; the message id the reader's). */
const partsOf = (message: UIMessage) => message.parts.map((part) => ('toolCallId' in part ? { ...part, toolCallId: '(id)' } : part));

/** The turn as the AI SDK streams it: a tool call, its result, then the typed answer. */
async function aiSdkMessage(): Promise<UIMessage> {
  const finish = (unified: 'stop' | 'tool-calls') => ({ type: 'finish', finishReason: { unified, raw: unified }, usage: specUsage(50, 10) }) as const;
  const steps: LanguageModelV3StreamPart[][] = [
    [{ type: 'stream-start', warnings: [] }, { type: 'tool-call', toolCallId: 'call-1', toolName: 'weather', input: '{"city":"Paris"}' }, finish('tool-calls')],
    [{ type: 'stream-start', warnings: [] }, { type: 'text-start', id: 't1' }, { type: 'text-delta', id: 't1', delta: ANSWER.slice(0, 12) }, { type: 'text-delta', id: 't1', delta: ANSWER.slice(12) }, { type: 'text-end', id: 't1' }, finish('stop')],
  ];
  const model = new MockLanguageModelV3({ doStream: steps.map((parts) => ({ stream: convertArrayToReadableStream(parts) })) });
  const result = streamText({
    model,
    prompt: 'Weather in Paris?',
    tools: { weather: aiTool({ description: 'the weather in a city', inputSchema: jsonSchema<{ city: string }>(CITY), execute: async ({ city }) => lookUp(city) }) },
    output: Output.object({ schema: jsonSchema<{ city: string; temp: number }>(WEATHER) }),
    stopWhen: stepCountIs(5),
  });
  return lastMessage(result.toUIMessageStream());
}

/** The same turn on Keel, with a re-ask of the tool's arguments and of the answer. */
function keelAgent() {
  const model = scriptedModel([
    { toolCalls: [{ id: 'k1', name: 'weather', arguments: { town: 'Paris' } }] },
    { toolCalls: [{ id: 'k1', name: 'weather', arguments: { city: 'Paris' } }] },
    '{"city":"Paris","temp":"mild"}',
    ANSWER,
  ]);
  const weather = tool({ name: 'weather', description: 'the weather in a city', input: Type.Object({ city: Type.String() }, { additionalProperties: false }), execute: ({ city }) => lookUp(city) });
  const agent = Agent.create({ provider: model, model: 'm' }).tool(weather).outputSchema(Type.Object({ city: Type.String(), temp: Type.Number() })).build();
  return { agent, model };
}

describe('a Keel stream read by the AI SDK UI stream reader', () => {
  it.each(['buffer', 'pass-through'] as const)('gives the AI SDK stream\'s message for the same turn, re-asks and all (%s)', async (textMode) => {
    const expected = await aiSdkMessage();
    expect(expected.parts.map((part) => part.type)).toEqual(['step-start', 'tool-weather', 'step-start', 'text']);

    const { agent, model } = keelAgent();
    const stream = agent.stream('Weather in Paris?', { textMode });
    const message = await lastMessage(stream.toUIMessageStream() as ReadableStream<UIMessageChunk>);
    expect(model.calls).toBe(4); // the tool call and the answer were each re-asked once
    expect(partsOf(message)).toEqual(partsOf(expected));
    expect(JSON.stringify(message)).not.toContain('mild');
    expect(JSON.stringify(message)).not.toContain('town');
    const result = await stream.result;
    expect(result.status === 'complete' && result.value).toEqual({ city: 'Paris', temp: 21 });
  });

  it('gives the AI SDK message of a plain text turn whose first answer a rule rejected', async () => {
    const startsPolitely = (text: string) => text.startsWith('Please');
    const polite: ReliabilityRule<ModelResponse> = { kind: 'polite', then: 'retry', feedbackForLLM: 'Start with "Please".', when: (scope) => scope.purpose === 'final-answer' && !startsPolitely(scope.response?.text ?? '') };
    const agent = Agent.create({ provider: scriptedModel(['Go away.', 'Please hold on.']), model: 'm' }).reliability({ postDecide: [polite] }).build();
    const message = await lastMessage(agent.stream('help').toUIMessageStream() as ReadableStream<UIMessageChunk>);
    expect(partsOf(message)).toEqual([{ type: 'step-start' }, { type: 'text', text: 'Please hold on.', state: 'done' }]);
  });

  it('reads the typed output from its data part with sendOutput', async () => {
    const { agent } = keelAgent();
    const message = await lastMessage(agent.stream('Weather in Paris?', { textMode: 'pass-through' }).toUIMessageStream({ sendOutput: true }) as ReadableStream<UIMessageChunk>);
    const data = message.parts.filter((part) => part.type === 'data-output');
    expect(data).toEqual([{ type: 'data-output', id: 'output-2', data: { city: 'Paris', temp: 21 } }]);
  });
});
