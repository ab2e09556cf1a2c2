import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { AbortedError, Agent, type ReliabilityRule, type ModelResponse, tool } from '../index';
import { scriptedModel } from '../testing/index';
import type { UIMessageChunk } from './ui-message-chunk';

async function read<T>(stream: ReadableStream<T>): Promise<T[]> {
  const reader = stream.getReader();
  const chunks: T[] = [];
  for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
  return chunks;
}

const textOf = (chunks: readonly UIMessageChunk<unknown>[]) => chunks.map((chunk) => (chunk.type === 'text-delta' ? chunk.delta : '')).join('');
const Weather = Type.Object({ city: Type.String(), temp: Type.Number() });
const weather = tool({ name: 'weather', description: 'the weather in a city', input: Type.Object({ city: Type.String() }), execute: ({ city }) => `${city}: 21 C` });

describe('toUIMessageStream', () => {
  it('writes a text answer as start, a step with one text part, and finish', async () => {
    const agent = Agent.create({ provider: scriptedModel('Hello there, how can I help?'), model: 'm' }).build();
    const chunks = await read(agent.stream('hi').toUIMessageStream({ messageId: 'msg-1' }));
    const types = chunks.map((chunk) => chunk.type);
    expect(types[0]).toBe('start');
    expect(chunks[0]).toEqual({ type: 'start', messageId: 'msg-1' });
    expect(types.slice(1, 3)).toEqual(['start-step', 'text-start']);
    expect(types.slice(-3)).toEqual(['text-end', 'finish-step', 'finish']);
    expect(chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' });
    expect(textOf(chunks)).toBe('Hello there, how can I help?');
    const ids = new Set(chunks.flatMap((chunk) => (chunk.type.startsWith('text-') && 'id' in chunk ? [chunk.id] : [])));
    expect(ids.size).toBe(1);
  });

  it('shows a re-asked tool call with the arguments it ran with, then its result', async () => {
    const model = scriptedModel([
      { toolCalls: [{ id: 'c1', name: 'weather', arguments: { city: 42 } }] },
      { toolCalls: [{ id: 'c1', name: 'weather', arguments: { city: 'Paris' } }] },
      'It is 21 C in Paris.',
    ]);
    const chunks = await read(Agent.create({ provider: model, model: 'm' }).tool(weather).build().stream('weather?').toUIMessageStream());
    const inputs = chunks.filter((chunk) => chunk.type === 'tool-input-available');
    expect(inputs.at(-1)).toEqual({ type: 'tool-input-available', toolCallId: 'c1', toolName: 'weather', input: { city: 'Paris' } });
    const output = chunks.findIndex((chunk) => chunk.type === 'tool-output-available');
    expect(chunks[output]).toEqual({ type: 'tool-output-available', toolCallId: 'c1', output: 'Paris: 21 C' });
    expect(chunks.lastIndexOf(inputs.at(-1) as (typeof chunks)[number])).toBeLessThan(output);
    expect(chunks.filter((chunk) => chunk.type === 'start-step')).toHaveLength(2);
    expect(textOf(chunks)).toBe('It is 21 C in Paris.');
  });

  it.each(['buffer', 'pass-through'] as const)('leaves no text of a rejected answer (%s mode, output schema)', async (textMode) => {
    const model = scriptedModel(['{"city":"Paris","temp":"warm"}', '{"city":"Paris","temp":21}']);
    const stream = Agent.create({ provider: model, model: 'm' }).outputSchema(Weather).build().stream('weather?', { textMode });
    const chunks = await read(stream.toUIMessageStream());
    expect(textOf(chunks)).toBe('{"city":"Paris","temp":21}');
    expect(chunks.filter((chunk) => chunk.type === 'text-start')).toHaveLength(1);
    expect(chunks.some((chunk) => chunk.type === 'data-output')).toBe(false);
  });

  it('leaves no text of a plain answer a rule rejected', async () => {
    const polite: ReliabilityRule<ModelResponse> = {
      kind: 'polite',
      then: 'retry',
      when: (scope) => scope.purpose === 'final-answer' && !String(scope.response?.text ?? '').startsWith('Please'),
      feedbackForLLM: 'Start with "Please".',
    };
    const model = scriptedModel(['Go away.', 'Please wait a moment.']);
    const agent = Agent.create({ provider: model, model: 'm' }).reliability({ postDecide: [polite] }).build();
    const chunks = await read(agent.stream('help').toUIMessageStream());
    expect(model.calls).toBe(2);
    expect(textOf(chunks)).toBe('Please wait a moment.');
  });
});

describe('toUIMessageStream', () => {
  it('sends the output as one data part, partial then validated, with sendOutput', async () => {
    const model = scriptedModel(['{"city":"Paris","temp":"warm"}', '{"city":"Paris","temp":21}']);
    const stream = Agent.create({ provider: model, model: 'm' }).outputSchema(Weather).build().stream('weather?', { textMode: 'pass-through' });
    const data = (await read(stream.toUIMessageStream({ sendOutput: true }))).filter((chunk) => chunk.type === 'data-output');
    expect(data.length).toBeGreaterThan(1);
    expect(new Set(data.map((chunk) => chunk.id))).toEqual(new Set(['output-1']));
    expect(data.at(-1)?.data).toEqual({ city: 'Paris', temp: 21 });
  });

  it('ends a failed run with an error chunk, masked unless onError says otherwise', async () => {
    const failing = () => Agent.create({ provider: scriptedModel(new Error('secret upstream detail')), model: 'm' }).reliability({ defaults: false }).build();
    const masked = await read(failing().stream('hi').toUIMessageStream());
    expect(masked.at(-1)).toEqual({ type: 'error', errorText: 'An error occurred.' });
    expect(masked.some((chunk) => chunk.type === 'finish')).toBe(false);
    const told = await read(failing().stream('hi').toUIMessageStream({ onError: (error) => (error instanceof Error ? error.name : 'x') }));
    expect(told.at(-1)).toEqual({ type: 'error', errorText: 'ReliabilityFailFastError' });
  });

  it('ends a cancelled run with abort, and a cancelled UI stream cancels the run', async () => {
    const slow = () => Agent.create({ provider: scriptedModel({ text: 'late', delayMs: 60_000 }), model: 'm' }).build();
    const cancelled = slow().stream('hi');
    const chunks = read(cancelled.toUIMessageStream());
    cancelled.cancel();
    expect((await chunks).at(-1)).toEqual({ type: 'abort' });

    const abandoned = slow().stream('hi');
    const reader = abandoned.toUIMessageStream().getReader();
    expect((await reader.read()).value).toEqual({ type: 'start' });
    await reader.cancel();
    await expect(abandoned.result).rejects.toSatisfy((error) => AbortedError.isInstance(error));
  });

  it('asks for approval of the calls a suspended run waits on', async () => {
    const refund = tool({ name: 'refund', description: 'refund an order', input: Type.Object({ order: Type.String() }), needsApproval: true, execute: () => 'done' });
    const model = scriptedModel([{ toolCalls: [{ id: 'r1', name: 'refund', arguments: { order: 'A7' } }] }]);
    const agent = Agent.create({ provider: model, model: 'm' }).tool(refund).build();
    const chunks = await read(agent.stream('refund A7').toUIMessageStream());
    const approval = chunks.findIndex((chunk) => chunk.type === 'tool-approval-request');
    // The approval names the suspension and the call, so the client's answer finds the state to resume.
    expect(chunks[approval]).toEqual({ type: 'tool-approval-request', approvalId: expect.stringMatching(/^[0-9a-f-]{36}:r1$/), toolCallId: 'r1' });
    expect(chunks.findIndex((chunk) => chunk.type === 'tool-input-available')).toBeLessThan(approval);
    // The suspended step is closed before the message ends.
    expect(chunks.slice(-3)).toEqual([chunks[approval], { type: 'finish-step' }, { type: 'finish', finishReason: 'tool-calls' }]);
    expect(chunks.filter((chunk) => chunk.type === 'finish-step')).toHaveLength(1);
  });

  it('has one reader at a time', () => {
    const stream = Agent.create({ provider: scriptedModel('hi'), model: 'm' }).build().stream('hi');
    stream.toUIMessageStream();
    expect(() => stream.toUIMessageStream()).toThrow(/one reader/);
  });
});

describe('toUIMessageStreamResponse', () => {
  it('is server-sent events with the UI stream headers, ending in [DONE]', async () => {
    const agent = Agent.create({ provider: scriptedModel('Hi!'), model: 'm' }).build();
    const response = agent.stream('hi').toUIMessageStreamResponse({ status: 201, headers: { 'Cache-Control': 'no-store', 'x-run': 'a' } });
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-run')).toBe('a');
    const body = await response.text();
    const events = body.split('\n\n').filter((event) => event.length > 0);
    expect(events.every((event) => event.startsWith('data: '))).toBe(true);
    expect(events.at(-1)).toBe('data: [DONE]');
    const chunks = events.slice(0, -1).map((event) => JSON.parse(event.slice('data: '.length)) as UIMessageChunk);
    expect(chunks[0]).toEqual({ type: 'start' });
    expect(textOf(chunks)).toBe('Hi!');
    expect(chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' });
  });

  it('cancels the run when the client goes away', async () => {
    const stream = Agent.create({ provider: scriptedModel({ text: 'late', delayMs: 60_000 }), model: 'm' }).build().stream('hi');
    const body = stream.toUIMessageStreamResponse().body;
    await body?.cancel();
    await expect(stream.result).rejects.toSatisfy((error) => AbortedError.isInstance(error));
  });
});

describe('textStream and partialOutputStream', () => {
  it('textStream yields only the accepted answer text', async () => {
    const model = scriptedModel(['{"city":"Paris","temp":"warm"}', '{"city":"Paris","temp":21}']);
    const stream = Agent.create({ provider: model, model: 'm' }).outputSchema(Weather).build().stream('weather?', { textMode: 'pass-through' });
    let text = '';
    for await (const delta of stream.textStream) text += delta;
    expect(text).toBe('{"city":"Paris","temp":21}');
  });

  it('partialOutputStream yields growing values and last the validated one', async () => {
    const model = scriptedModel('{"city":"Paris","temp":21}');
    const stream = Agent.create({ provider: model, model: 'm' }).outputSchema(Weather).build().stream('weather?');
    const values: unknown[] = [];
    for await (const value of stream.partialOutputStream) values.push(value);
    expect(values[0]).toEqual({ city: 'Paris' });
    expect(values.at(-1)).toEqual({ city: 'Paris', temp: 21 });
    expect((await stream.result).status).toBe('complete');
  });
});
