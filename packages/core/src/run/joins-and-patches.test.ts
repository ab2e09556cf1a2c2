import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { Agent, type ModelRequest } from '../index';
import { scriptedModel, asComplete } from '../testing/index';

const Song = Type.Object({ lines: Type.Array(Type.String()) });
const SONG = ['Row, row, row your boat', 'Row, row, row your boat', 'Gently down the stream', 'Merrily, merrily, merrily, merrily'];
const FIRST = '{"lines": ["Row, row, row your boat",';
// The continuation begins with the song's second line, equal to the first: as written and without it, both read.
const SECOND = '"Row, row, row your boat", "Gently down the stream",';
const LAST = ' "Merrily, merrily, merrily, merrily"]}';
const WHOLE = JSON.stringify({ lines: SONG });

describe('a continuation never drops a line the model wrote twice', () => {
  it('a continuation cut again that may repeat the end of the cut output is refused, never joined without the line', async () => {
    const model = scriptedModel((request: ModelRequest, call: number) => {
      if (request.continueFrom === FIRST) return { text: SECOND, finishReason: 'length' as const };
      if (request.continueFrom !== undefined) return { text: LAST, finishReason: 'stop' as const };
      return call === 1 ? { text: FIRST, finishReason: 'length' as const } : WHOLE;
    });
    const result = asComplete(await Agent.create({ provider: model, model: 'm' }).outputSchema(Song).build().run('sing'));
    expect(result.value).toEqual({ lines: SONG });
    expect(result.attempts.map((attempt) => attempt.errorKind)).toEqual(['truncated', 'parse-fail', 'ok']);
  });

  it('a finished continuation that reads with and without the line: the schema settles it when only one reading validates', async () => {
    const script = () => scriptedModel([{ text: FIRST, finishReason: 'length' }, `${SECOND}${LAST}`, WHOLE]);
    const four = Type.Object({ lines: Type.Array(Type.String(), { minItems: 4 }) });
    const settled = asComplete(await Agent.create({ provider: script(), model: 'm' }).outputSchema(four).build().run('sing'));
    expect(settled.value).toEqual({ lines: SONG });
    expect(settled.attempts.map((attempt) => attempt.via)).toEqual([undefined, 'continuation']);
    // Both readings valid: refused, and the next reply is taken.
    const model = script();
    const refused = asComplete(await Agent.create({ provider: model, model: 'm' }).outputSchema(Song).build().run('sing'));
    expect(refused.value).toEqual({ lines: SONG });
    expect(refused.attempts.map((attempt) => attempt.errorKind)).toEqual(['truncated', 'parse-fail', 'ok']);
  });
});

describe('a fragment is never taken as the whole answer', () => {
  const Node = Type.Recursive((This) => Type.Object({ id: Type.Integer(), children: Type.Array(This) }));
  const tree = { id: 1, children: [{ id: 2, children: [] }, { id: 3, children: [] }] };

  it('a complete child that continues a cut tree is a continuation: the tree still lacks its end', async () => {
    const model = scriptedModel([{ text: '{"id":1,"children":[{"id":2,"children":[]},', finishReason: 'length' }, ' {"id":3,"children":[]}', JSON.stringify(tree)]);
    const result = asComplete(await Agent.create({ provider: model, model: 'm' }).outputSchema(Node).build().run('tree'));
    expect(result.value).toEqual(tree);
    expect(result.attempts[1]).toMatchObject({ errorKind: 'parse-fail', via: 'continuation' });
  });
});

describe('a patch keeps the literal text of every number', () => {
  it('"version": 1.10 where a string is due stays "1.10" after a patch of another field, as without a patch', async () => {
    const Release = Type.Object({ version: Type.String(), items: Type.Array(Type.Object({ sku: Type.String(), price: Type.Number() })) });
    const items = Array.from({ length: 120 }, (_, index) => `{"sku": "SKU-${index}", "price": ${index === 17 ? '"twenty"' : `${10 + index}.50`}}`);
    const reply = `{"version": 1.10, "items": [\n${items.join(',\n')}\n]}`;
    const model = scriptedModel([reply, '{"items[17].price": 20.00}']);
    const result = asComplete(await Agent.create({ provider: model, model: 'm' }).outputSchema(Release).build().run('release'));
    expect(result.attempts.map((attempt) => attempt.via)).toEqual([undefined, 'patch']);
    const value = result.value as { version: string; items: { price: number }[] };
    expect(value.version).toBe('1.10');
    expect(value.items[17]?.price).toBe(20);
    const unpatched = asComplete(await Agent.create({ provider: scriptedModel([reply.replace('"twenty"', '27.50')]), model: 'm' }).outputSchema(Release).build().run('release'));
    expect((unpatched.value as { version: string }).version).toBe('1.10');
  });
});
