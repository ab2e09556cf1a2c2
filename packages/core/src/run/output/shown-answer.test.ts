import { describe, expect, it } from 'vitest';
import { Agent, type AgentStreamPart, type ModelRequest } from '../../index';
import type { DeepPartial } from '../../contracts/stream-part';
import { type Script, scriptedModel, asComplete } from '../../testing/index';
import { BAD_PRICE, GOOD, GOOD_TEXT, Order, type OrderValue } from '../order-fixture';

/** A model whose replies are cut at `cut` characters of `full`, continuing where `continueFrom` ends (repeating `repeat` characters). */
function cuttingModel(full: string, cut: number, repeat = 0) {
  return (request: ModelRequest) => {
    const from = request.continueFrom;
    if (from === undefined) return { text: full.slice(0, cut), finishReason: 'length' as const };
    return { text: full.slice(Math.max(0, from.length - repeat)), finishReason: 'stop' as const };
  };
}

/** What a reader following the documented rules shows: text and partials by attempt, a retry taking back those of its attempt. */
interface Reader {
  text: string;
  partials: DeepPartial<OrderValue>[];
  output: OrderValue | undefined;
}

async function read(script: Script, textMode: 'pass-through' | 'buffer' = 'pass-through', mode: 'tool' | undefined = undefined) {
  const agent = Agent.create({ provider: scriptedModel(script), model: 'm' })
    .outputSchema(Order, mode === undefined ? {} : { mode })
    .build();
  const stream = agent.stream('extract', { textMode });
  let texts: { attempt: number; text: string }[] = [];
  let partials: { attempt: number; value: DeepPartial<OrderValue> }[] = [];
  const parts: AgentStreamPart<OrderValue>[] = [];
  let output: OrderValue | undefined;
  for await (const part of stream) {
    parts.push(part);
    if (part.type === 'text-delta') texts.push({ attempt: part.attempt, text: part.text });
    if (part.type === 'partial-output') partials.push({ attempt: part.attempt, value: part.value });
    if (part.type === 'output') output = part.value;
    if (part.type === 'retry' && part.discardStreamedText) texts = texts.filter((shown) => shown.attempt !== part.attempt);
    if (part.type === 'retry' && part.discardPartialOutput) partials = partials.filter((shown) => shown.attempt !== part.attempt);
  }
  const reader: Reader = { text: texts.map((shown) => shown.text).join(''), partials: partials.map((shown) => shown.value), output };
  return { reader, parts, result: asComplete(await stream.result) };
}

/** Every partial shown is a partial of the value: the order's customer, items with skus of the order. */
function expectPartialsOfTheOrder(partials: readonly DeepPartial<OrderValue>[]) {
  expect(partials.length).toBeGreaterThan(0);
  for (const partial of partials) {
    expect(Object.keys(partial).every((key) => key === 'customer' || key === 'items')).toBe(true);
    if (partial.customer !== undefined) expect(GOOD.customer.startsWith(partial.customer)).toBe(true);
    partial.items?.forEach((item, index) => {
      if (item.sku !== undefined) expect(`SKU-${index}`.startsWith(item.sku)).toBe(true);
    });
  }
  expect(partials[partials.length - 1]).toEqual(GOOD);
}

describe('a pass-through stream ends showing the accepted text', () => {
  it('after a patch re-ask: the patched whole value, not the patch', async () => {
    const { reader, result } = await read([BAD_PRICE, '{"items[17].price": 14.25}']);
    expect(result.attempts.map((attempt) => attempt.via)).toEqual([undefined, 'patch']);
    expect(reader.text).toBe(result.text);
    expect(JSON.parse(reader.text)).toEqual(GOOD);
    expectPartialsOfTheOrder(reader.partials);
    expect(reader.output).toEqual(GOOD);
  });

  it('after a continuation that appends: the cut text, then the rest as it came', async () => {
    const { reader, parts, result } = await read(cuttingModel(GOOD_TEXT, 2000));
    expect(result.attempts.map((attempt) => attempt.via)).toEqual([undefined, 'continuation']);
    expect(reader.text).toBe(result.text);
    expect(result.text).toBe(GOOD_TEXT);
    // Nothing is taken back: the continuation only adds to what was shown.
    expect(parts.some((part) => part.type === 'retry')).toBe(false);
    expectPartialsOfTheOrder(reader.partials);
  });

  it('after a continuation whose join drops what it repeats: the joined text, once', async () => {
    const { reader, result } = await read(cuttingModel(GOOD_TEXT, 2000, 50));
    expect(result.attempts[1]?.via).toBe('continuation');
    expect(result.text).toBe(GOOD_TEXT);
    expect(reader.text).toBe(result.text);
    expectPartialsOfTheOrder(reader.partials);
  });

  it('after a continuation that starts the value over: the cut text is taken back', async () => {
    const compact = JSON.stringify(GOOD);
    const { reader, parts, result } = await read((_request: ModelRequest, call: number) => (call === 1 ? { text: GOOD_TEXT.slice(0, 2000), finishReason: 'length' as const } : compact));
    expect(result.text).toBe(compact);
    expect(reader.text).toBe(result.text);
    expect(parts.find((part) => part.type === 'retry')).toMatchObject({ attempt: 1, discardStreamedText: true, discardPartialOutput: true });
    expect(reader.partials[reader.partials.length - 1]).toEqual(GOOD);
  });

  it('after a continued answer that is rejected: the cut text is taken back with the rest', async () => {
    const { reader, result } = await read((request: ModelRequest, call: number) => {
      if (call === 1) return { text: BAD_PRICE.slice(0, 2000), finishReason: 'length' as const };
      if (call === 2) return BAD_PRICE.slice(request.continueFrom?.length ?? 0);
      return '{"items[17].price": 14.25}';
    });
    expect(result.attempts.map((attempt) => attempt.via)).toEqual([undefined, 'continuation', 'patch']);
    expect(reader.text).toBe(result.text);
    expect(JSON.parse(reader.text)).toEqual(GOOD);
    expectPartialsOfTheOrder(reader.partials);
  });

  it('after an ordinary re-ask: the second answer only', async () => {
    const small = '{"customer":"x","items":[{"sku":"a","qty":1,"price":"x"}]}';
    const fixed = '{"customer":"x","items":[{"sku":"a","qty":1,"price":1}]}';
    const { reader, result } = await read([small, fixed]);
    expect(result.attempts.map((attempt) => attempt.via)).toEqual([undefined, undefined]);
    expect(reader.text).toBe(result.text);
    expect(reader.text).toBe(fixed);
  });
});

describe('output mode tool', () => {
  it('a patch of the answer tool’s arguments is shown as the patched whole value', async () => {
    const answer = (text: string) => ({ toolCalls: [{ name: 'final_answer', arguments: JSON.parse(text) as unknown }] });
    const { reader, result } = await read([answer(BAD_PRICE), answer('{"items[17].price": 14.25}')], 'pass-through', 'tool');
    expect(result.attempts.map((attempt) => attempt.via)).toEqual([undefined, 'patch']);
    expect(reader.text).toBe(result.text);
    expect(JSON.parse(reader.text)).toEqual(GOOD);
    expectPartialsOfTheOrder(reader.partials);
  });
});

describe('a buffered stream with a patch re-ask or a continuation', () => {
  it('shows the accepted text once, and partials of the value only', async () => {
    for (const script of [[BAD_PRICE, '{"items[17].price": 14.25}'], cuttingModel(GOOD_TEXT, 2000, 50)] as const) {
      const { reader, result } = await read(script, 'buffer');
      expect(reader.text).toBe(result.text);
      expectPartialsOfTheOrder(reader.partials);
    }
  });
});
