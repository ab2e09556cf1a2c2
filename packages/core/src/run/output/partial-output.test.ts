import { Type } from '@sinclair/typebox';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { AgentStreamPart } from '../../contracts/stream-part';
import { Agent, tool } from '../../index';
import { scriptedModel } from '../../testing/index';

const Profile = Type.Object({
  name: Type.String(),
  languages: Type.Array(Type.String()),
  age: Type.Integer({ minimum: 0 }),
});

async function collect<T>(stream: AsyncIterable<AgentStreamPart<T>>): Promise<AgentStreamPart<T>[]> {
  const parts: AgentStreamPart<T>[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

const VALID = '{"name":"Ada Lovelace","languages":["English","French"],"age":36}';
const partials = <T>(parts: readonly AgentStreamPart<T>[]) => parts.flatMap((part) => (part.type === 'partial-output' ? [part] : []));

describe('partial output while streaming', () => {
  it('pass-through: partial values grow to the final validated value, which the output part carries', async () => {
    const model = scriptedModel([VALID]);
    const stream = Agent.create({ provider: model, model: 'm' }).outputSchema(Profile).build().stream('who', { textMode: 'pass-through' });
    const parts = await collect(stream);
    const values = partials(parts).map((part) => part.value);
    expect(values.length).toBeGreaterThan(3);
    expect(values[0]).toEqual({ name: 'Ada Lov' });
    // Each partial is a prefix of the next: nothing shown is taken back within an attempt.
    for (let index = 1; index < values.length; index++) expect(JSON.stringify(values[index]).length).toBeGreaterThanOrEqual(JSON.stringify(values[index - 1]).length - 2);
    expect(values.at(-1)).toEqual({ name: 'Ada Lovelace', languages: ['English', 'French'], age: 36 });
    const output = parts.find((part) => part.type === 'output');
    expect(output).toEqual({ type: 'output', step: 1, value: { name: 'Ada Lovelace', languages: ['English', 'French'], age: 36 } });
    const types = parts.map((part) => part.type);
    expect(types.indexOf('output')).toBeGreaterThan(types.lastIndexOf('partial-output'));
    expect(types.indexOf('output')).toBeLessThan(types.indexOf('step-end'));
    if (output?.type === 'output') expectTypeOf(output.value).toEqualTypeOf<{ name: string; languages: string[]; age: number }>();
    const first = partials(parts)[0];
    if (first) expectTypeOf(first.value.languages).toEqualTypeOf<string[] | undefined>();
  });

  it('pass-through: a retry part tells consumers to drop the failed attempt’s partials', async () => {
    const model = scriptedModel(['{"name":"Ada","languages":["English"],"age":-1}', VALID]);
    const parts = await collect(Agent.create({ provider: model, model: 'm' }).outputSchema(Profile).build().stream('who', { textMode: 'pass-through' }));
    const retryAt = parts.findIndex((part) => part.type === 'retry');
    expect(parts[retryAt]).toMatchObject({ type: 'retry', attempt: 1, discardPartialOutput: true });
    expect(partials(parts.slice(0, retryAt)).every((part) => part.attempt === 1)).toBe(true);
    const after = partials(parts.slice(retryAt));
    expect(after.every((part) => part.attempt === 2)).toBe(true);
    // The new attempt starts afresh: its first partial is small again.
    expect(after[0]?.value).toEqual({ name: 'Ada Lov' });
    expect(parts.find((part) => part.type === 'output')).toMatchObject({ value: { age: 36 } });
  });

  it('buffer mode: partials of a failed attempt are never shown; those of the accepted one come before the output', async () => {
    const model = scriptedModel(['{"name":"Bob","languages":["English"],"age":-1}', VALID]);
    const parts = await collect(Agent.create({ provider: model, model: 'm' }).outputSchema(Profile).build().stream('who'));
    const shown = partials(parts);
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.every((part) => part.attempt === 2)).toBe(true);
    expect(JSON.stringify(shown)).not.toContain('Bob');
    expect(parts.find((part) => part.type === 'retry')).toMatchObject({ discardPartialOutput: false });
    const types = parts.map((part) => part.type);
    expect(types.lastIndexOf('partial-output')).toBeLessThan(types.indexOf('output'));
  });

  it('tool mode: the answer tool’s arguments stream as partials; no tool-call part for it', async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'final_answer', arguments: { name: 'Ada Lovelace', languages: ['English'], age: 36 } }] }]);
    const parts = await collect(Agent.create({ provider: model, model: 'm' }).outputSchema(Profile, { mode: 'tool' }).build().stream('who', { textMode: 'pass-through' }));
    expect(partials(parts).at(-1)?.value).toEqual({ name: 'Ada Lovelace', languages: ['English'], age: 36 });
    expect(parts.some((part) => part.type === 'tool-call' || part.type === 'tool-call-delta')).toBe(false);
    expect(parts.find((part) => part.type === 'output')).toMatchObject({ value: { age: 36 } });
  });

  it('a tool-call turn: its text shows no partial once a tool call starts, and only the final answer gets an output part', async () => {
    const lookup = tool({ name: 'lookup', description: 'x', input: Type.Object({}), execute: () => 'Ada' });
    const model = scriptedModel([{ text: 'Looking up', toolCalls: [{ name: 'lookup', arguments: {} }] }, VALID]);
    const parts = await collect(Agent.create({ provider: model, model: 'm' }).tool(lookup).outputSchema(Profile).build().stream('who', { textMode: 'pass-through' }));
    expect(partials(parts).every((part) => part.step === 2)).toBe(true);
    expect(parts.filter((part) => part.type === 'output')).toMatchObject([{ step: 2 }]);
  });

  it('a long answer is read a bounded number of times, and its last partial is the whole answer', async () => {
    const Long = Type.Object({ items: Type.Array(Type.Object({ id: Type.Integer(), label: Type.String() })) });
    const value = { items: Array.from({ length: 4000 }, (_, id) => ({ id, label: `item number ${id}` })) };
    const text = JSON.stringify(value);
    const parts = await collect(Agent.create({ provider: scriptedModel([text]), model: 'm' }).outputSchema(Long).build().stream('list', { textMode: 'pass-through' }));
    const shown = partials(parts);
    // About 10,000 deltas of 16 characters; the text is read some hundreds of times, not on each.
    expect(text.length / 16).toBeGreaterThan(9000);
    expect(shown.length).toBeLessThan(800);
    expect(shown.at(-1)?.value).toEqual(value);
  });

  it('without an output schema there are no partial or output parts', async () => {
    const parts = await collect(Agent.create({ provider: scriptedModel(['{"a": 1}']), model: 'm' }).build().stream('x', { textMode: 'pass-through' }));
    expect(parts.some((part) => part.type === 'partial-output' || part.type === 'output')).toBe(false);
  });
});
