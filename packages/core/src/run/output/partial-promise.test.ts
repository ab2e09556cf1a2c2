import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { Agent, type AgentStreamPart, type ModelRequest, tool } from '../../index';
import { type ScriptedReply, scriptedModel } from '../../testing/index';
import { BAD_PRICE, GOOD, GOOD_TEXT, Order, type OrderValue } from '../order-fixture';

/**
 * The promise of `partial-output` parts: a field complete in one partial is present and equal in
 * the next, unless a `retry` part with `discardPartialOutput` comes between them (the one part
 * that takes partials back). Checked over scripted streams with re-asks, patches, continuations,
 * tool-call turns and fallbacks, in both text modes.
 */

type Path = readonly (string | number)[];

/**
 * The fields a partial shows complete, with their values: in an object every property but the last
 * (JSON writes them in order), in an array every item but the last; the last one is complete only
 * where it is a number, boolean or null (shown once complete), or within it, recursively. A string
 * that ends a partial may still grow.
 */
function completeFields(value: unknown, path: Path = [], closed = false): [Path, unknown][] {
  if (closed) return [[path, value]];
  if (Array.isArray(value)) return value.flatMap((item: unknown, index) => completeFields(item, [...path, index], index < value.length - 1));
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value);
    return entries.flatMap(([key, item], index) => completeFields(item, [...path, key], index < entries.length - 1));
  }
  return typeof value === 'string' ? [] : [[path, value]];
}

const at = (value: unknown, path: Path): unknown => path.reduce<unknown>((inner, key) => (typeof inner === 'object' && inner !== null ? (inner as Record<string | number, unknown>)[key] : undefined), value);

/** Each pair of consecutive partials with no take-back between them where the second drops or changes a complete field of the first. */
function brokenPromises(parts: readonly AgentStreamPart<OrderValue>[]): string[] {
  const broken: string[] = [];
  let last: { value: unknown; index: number } | undefined;
  parts.forEach((part, index) => {
    if (part.type === 'retry' && part.discardPartialOutput) last = undefined;
    if (part.type !== 'partial-output' && part.type !== 'output') return;
    if (last)
      for (const [path, value] of completeFields(last.value)) {
        if (JSON.stringify(at(part.value, path)) !== JSON.stringify(value)) broken.push(`parts ${last.index} → ${index} (${part.type}): ${path.join('.')} was ${JSON.stringify(value)}, is ${JSON.stringify(at(part.value, path))}`);
      }
    last = { value: part.value, index };
  });
  return broken;
}

/** A small deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const OTHER = JSON.stringify({ ...GOOD, customer: 'Ines Varga' });
const PATCH = '{"items[17].price": 14.25}';
const cut = (text: string, at: number): ScriptedReply => ({ text: text.slice(0, at), finishReason: 'length' });

/** A reply to a fresh request (no continuation). */
function freshReply(pick: number, position: number): ScriptedReply {
  const size = 200 + Math.floor(position * 3000);
  const replies: ScriptedReply[] = [
    GOOD_TEXT,
    BAD_PRICE,
    OTHER,
    PATCH,
    cut(GOOD_TEXT, size),
    cut(BAD_PRICE, size),
    { text: GOOD_TEXT.slice(0, size), toolCalls: [{ name: 'lookup', arguments: {} }] },
    '{"customer": 7}',
    new Error('socket hang up'),
  ];
  return replies[Math.floor(pick * replies.length)] ?? GOOD_TEXT;
}

/** A reply to a continuation of cut text: the rest, the rest with a repeat, the value started over, or cut again. */
function continuation(from: string, pick: number): ScriptedReply {
  const full = BAD_PRICE.startsWith(from) ? BAD_PRICE : GOOD_TEXT;
  const replies: ScriptedReply[] = [full.slice(from.length), full.slice(Math.max(0, from.length - 40)), JSON.stringify(GOOD), OTHER, cut(full.slice(from.length), 500)];
  return replies[Math.floor(pick * replies.length)] ?? full.slice(from.length);
}

function scriptFor(seed: number) {
  const next = random(seed);
  return (request: ModelRequest, call: number): ScriptedReply => {
    if (call > 6) return GOOD_TEXT;
    const from = request.continueFrom;
    return from === undefined ? freshReply(next(), next()) : continuation(from, next());
  };
}

const lookup = tool({ name: 'lookup', description: 'looks up', input: Type.Object({}), execute: () => 'found' });

export function agentFor(seed: number, fallback: boolean) {
  const builder = Agent.create({ provider: scriptedModel(scriptFor(seed)), model: 'm' }).tool(lookup).outputSchema(Order);
  return (fallback ? builder.outputFallback({ canned: { customer: 'nobody', items: [] } }) : builder).build();
}

async function partsOf(seed: number, textMode: 'pass-through' | 'buffer', fallback: boolean): Promise<AgentStreamPart<OrderValue>[]> {
  const agent = agentFor(seed, fallback);
  const parts: AgentStreamPart<OrderValue>[] = [];
  try {
    for await (const part of agent.stream('extract', { textMode })) parts.push(part);
  } catch {
    // A run that fails still keeps the promise for the parts it streamed.
  }
  return parts;
}

describe('a completed field of a partial is never taken back silently', () => {
  it('completeFields: only what can no longer change', () => {
    expect(completeFields({ a: 'x', b: [1, 2], c: { d: 'y' } })).toEqual([
      [['a'], 'x'],
      [['b'], [1, 2]],
    ]);
    expect(completeFields({ a: 'x', b: [{ s: 'q', n: 1 }, { s: 'r' }] })).toEqual([
      [['a'], 'x'],
      [['b', 0], { s: 'q', n: 1 }],
    ]);
    expect(completeFields({ a: 1 })).toEqual([[['a'], 1]]);
  });

  for (const textMode of ['pass-through', 'buffer'] as const)
    it(`${textMode}: over scripted streams with re-asks, patches, continuations, tool-call turns and fallbacks`, async () => {
      let partials = 0;
      const takeBacks = new Set<string>();
      for (let seed = 1; seed <= 60; seed++) {
        const parts = await partsOf(seed, textMode, seed % 3 === 0);
        partials += parts.filter((part) => part.type === 'partial-output').length;
        for (const part of parts) if (part.type === 'retry' && part.discardPartialOutput) takeBacks.add(part.errorKind);
        expect(brokenPromises(parts), `seed ${seed}`).toEqual([]);
      }
      expect(partials).toBeGreaterThan(100);
      // Pass-through takes partials back after a re-ask, a continuation started over, a tool-call turn ('ok'); buffer mode never shows one to take back.
      if (textMode === 'pass-through') expect([...takeBacks]).toEqual(expect.arrayContaining(['schema-fail', 'truncated', 'ok']));
      else expect([...takeBacks]).toEqual([]);
    });

  it('partialOutputStream has no take-back part, so it shows only kept partials: no completed field ever changes', async () => {
    for (let seed = 1; seed <= 30; seed++)
      for (const textMode of ['pass-through', 'buffer'] as const) {
        const values: unknown[] = [];
        try {
          for await (const value of agentFor(seed, seed % 3 === 0).stream('extract', { textMode }).partialOutputStream) values.push(value);
        } catch {
          // A failed run: the values before the failure still keep the promise.
        }
        const asParts = values.map((value): AgentStreamPart<OrderValue> => ({ type: 'partial-output', step: 1, attempt: 1, value: value as OrderValue }));
        expect(brokenPromises(asParts), `seed ${seed} ${textMode}`).toEqual([]);
      }
  });

  it('a tool-call turn whose text showed partials takes them back when its first tool call starts', async () => {
    const model = scriptedModel([{ text: GOOD_TEXT.slice(0, 400), toolCalls: [{ name: 'lookup', arguments: {} }] }, OTHER]);
    const parts: AgentStreamPart<OrderValue>[] = [];
    for await (const part of Agent.create({ provider: model, model: 'm' }).tool(lookup).outputSchema(Order).build().stream('x', { textMode: 'pass-through' })) parts.push(part);
    const types = parts.map((part) => (part.type === 'retry' ? `retry:${part.errorKind}:${String(part.discardPartialOutput)}:${String(part.discardStreamedText)}` : part.type));
    expect(types.indexOf('retry:ok:true:false')).toBeGreaterThan(types.lastIndexOf('partial-output', types.indexOf('step-end')));
    expect(types.indexOf('retry:ok:true:false')).toBeLessThan(types.indexOf('tool-call'));
    expect(brokenPromises(parts)).toEqual([]);
  });

  it('a fallback tier that answers takes back the partials the failed attempts left shown', async () => {
    const parts: AgentStreamPart<OrderValue>[] = [];
    const agent = Agent.create({ provider: scriptedModel('{"customer":"Ada","items":"none"}'), model: 'm' }).outputSchema(Order).outputFallback({ canned: { customer: 'nobody', items: [] } }).build();
    for await (const part of agent.stream('x', { textMode: 'pass-through' })) parts.push(part);
    const last = parts.map((part) => part.type).lastIndexOf('partial-output');
    const retry = parts.findIndex((part, index) => index > last && part.type === 'retry');
    expect(parts[retry]).toMatchObject({ type: 'retry', discardPartialOutput: true, discardStreamedText: false });
    expect(parts.findIndex((part) => part.type === 'output')).toBeGreaterThan(retry);
    expect(brokenPromises(parts)).toEqual([]);
  });

  it('the check catches a take-back: a changed field with no retry part between', () => {
    const partial = (value: unknown): AgentStreamPart<OrderValue> => ({ type: 'partial-output', step: 1, attempt: 1, value: value as OrderValue });
    expect(brokenPromises([partial({ customer: 'Noor', items: [] }), partial({ customer: 'Ines' })])).toHaveLength(1);
    const retry: AgentStreamPart<OrderValue> = { type: 'retry', step: 1, attempt: 1, errorKind: 'schema-fail', discardStreamedText: true, discardPartialOutput: true };
    expect(brokenPromises([partial({ customer: 'Noor', items: [] }), retry, partial({ customer: 'Ines' })])).toEqual([]);
  });
});
