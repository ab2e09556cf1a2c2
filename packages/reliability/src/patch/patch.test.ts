import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { ValidationFailure } from '../errors/validation-failure';
import { checkOutput } from '../validation/validate-output';
import { toValidator } from '../validation/to-validator';
import { applyPatch } from './apply-patch';
import { DEFAULT_PATCH_SETTINGS, patchRequestOf, type PatchRequest } from './patch-request';
import { readPatchReply } from './read-patch-reply';
import { writeJson } from './write-json';

const Item = Type.Object({ sku: Type.String(), qty: Type.Integer(), price: Type.Number(), note: Type.Optional(Type.String()) }, { additionalProperties: false });
const Order = Type.Object({ customer: Type.String(), items: Type.Array(Item) }, { additionalProperties: false });
const validator = toValidator(Order);

const order = (count: number) => ({
  customer: 'Noor Haddad',
  items: Array.from({ length: count }, (_, index) => ({ sku: `SKU-${index}`, qty: 1 + (index % 5), price: 10 + index / 4 })),
});

/** The failure and rejected value of `value` as a reply, and the patch request for it. */
function rejected(value: unknown, settings = { minTokens: 50, maxPaths: 8 }): { failure: ValidationFailure; request: PatchRequest | undefined } {
  const checked = checkOutput(JSON.stringify(value, null, 2), validator, { coerce: false });
  if (checked instanceof Promise || checked.ok) throw new Error('expected a synchronous failure');
  return { failure: checked.failure, request: patchRequestOf(checked.failure, checked.value, settings) };
}

const withBadPrice = () => {
  const value = order(40);
  (value.items[17] as Record<string, unknown>).price = 'twenty';
  return value;
};

describe('patch requests', () => {
  it('names the paths of a large value with issues at a few places', () => {
    const { request } = rejected(withBadPrice());
    expect(request?.targets.map((target) => target.pathText)).toEqual(['items[17].price']);
  });

  it('asks for the whole value when the output is small, the issue is at the root, or issues sit at too many paths', () => {
    const small = order(2);
    (small.items[0] as Record<string, unknown>).price = 'x';
    expect(rejected(small).request).toBeUndefined();
    expect(rejected({ ...order(40), extra: 1 }).request).toBeUndefined();
    const many = order(40);
    for (let index = 0; index < 10; index++) (many.items[index] as Record<string, unknown>).price = 'x';
    expect(rejected(many).request).toBeUndefined();
    expect(rejected(withBadPrice(), { minTokens: 1_000_000, maxPaths: 8 }).request).toBeUndefined();
  });

  it('names the object holding an extra property, and a missing property at its own path', () => {
    const value = order(40);
    (value.items[3] as Record<string, unknown>).colour = 'navy';
    delete (value.items[5] as Partial<(typeof value.items)[number]>).sku;
    const { request } = rejected(value);
    expect(request?.targets.map((target) => target.pathText).sort()).toEqual(['items[3]', 'items[5].sku']);
  });

  it('asks for the whole value when two paths print alike', () => {
    const Loose = Type.Record(Type.String(), Type.Object({ n: Type.Number() }));
    const value: Record<string, unknown> = { 'a.b': { n: 'x' }, c: { n: 1 } };
    for (let index = 0; index < 200; index++) value[`k${index}`] = { n: index };
    const checked = checkOutput(JSON.stringify(value), toValidator(Loose), { coerce: false });
    if (checked instanceof Promise || checked.ok) throw new Error('expected a failure');
    // Only one issue: a.b.n, printed `a.b.n`, which is also how ['a', 'b', 'n'] prints; one target is fine.
    const request = patchRequestOf(checked.failure, checked.value, { minTokens: 10, maxPaths: 8 });
    expect(request?.targets).toEqual([{ pathText: 'a.b.n', path: ['a.b', 'n'] }]);
    const twin = new ValidationFailure({
      stage: 'schema-validate',
      message: 'two',
      rawOutput: JSON.stringify(value),
      issues: [
        { path: ['a.b', 'n'], pathText: 'a.b.n', kind: 'type', message: 'x' },
        { path: ['a', 'b', 'n'], pathText: 'a.b.n', kind: 'type', message: 'x' },
      ],
    });
    expect(patchRequestOf(twin, checked.value, { minTokens: 10, maxPaths: 8 })).toBeUndefined();
  });

  it('is off for parse failures', () => {
    const failure = new ValidationFailure({ stage: 'json-parse', message: 'bad', rawOutput: 'x'.repeat(10_000), issues: [{ path: [], pathText: '(root)', kind: 'other', message: 'bad' }] });
    expect(patchRequestOf(failure, undefined, DEFAULT_PATCH_SETTINGS)).toBeUndefined();
  });
});

describe('reading a reply to a patch request', () => {
  const request = () => rejected(withBadPrice()).request as PatchRequest;

  it('applies a patch and re-validates the whole value', () => {
    const reading = readPatchReply('{"items[17].price": 21.25}', request());
    expect(reading.type).toBe('patch');
    if (reading.type !== 'patch') return;
    const checked = checkOutput(reading.text, validator);
    expect(checked instanceof Promise ? undefined : checked.ok).toBe(true);
    const expected = withBadPrice();
    (expected.items[17] as Record<string, unknown>).price = 21.25;
    expect(reading.value).toEqual(expected);
  });

  it('takes a patch in a fence with prose around it (lossless extraction)', () => {
    const reading = readPatchReply('Here is the fix:\n```json\n{"items[17].price": 21.25}\n```\nThanks.', request());
    expect(reading.type).toBe('patch');
  });

  it('refuses a patch touching a path that was not named', () => {
    const reading = readPatchReply('{"items[17].price": 21.25, "items[3].price": 0}', request());
    expect(reading).toEqual({ type: 'refused', message: expect.stringContaining('items[3].price') });
  });

  it('refuses a patch setting a path that does not exist', () => {
    const base = request();
    const shorter = { ...base, base: { customer: 'x', items: [] } };
    expect(readPatchReply('{"items[17].price": 1}', shorter)).toEqual({ type: 'refused', message: expect.stringContaining('does not exist') });
    expect(applyPatch(base, { 'items[17].price': 1, toString: 2 }).ok).toBe(false);
  });

  it('refuses a patch with another value beside it, and a patch with bare words', () => {
    expect(readPatchReply('{"items[17].price": 21.25}\nor maybe\n{"items[17].price": 22}', request()).type).toBe('refused');
    expect(readPatchReply('{"items[17].price": twenty}', request()).type).not.toBe('patch');
  });

  it('reads a reply holding every top-level key as a complete value', () => {
    const full = order(40);
    expect(readPatchReply(JSON.stringify(full), request())).toEqual({ type: 'complete' });
    expect(readPatchReply('I cannot help with that.', request())).toEqual({ type: 'complete' });
    expect(readPatchReply('{"customer": "x"}', request())).toEqual({ type: 'complete' });
  });

  it('never mutates the rejected value and keeps __proto__ a plain key', () => {
    const Loose = Type.Object({ __proto__: Type.Optional(Type.Number()), items: Type.Array(Type.Number()) });
    const base = JSON.parse(`{"items": [${Array.from({ length: 400 }, (_, index) => index).join(',')}], "__proto__": "x"}`) as unknown;
    const failure = new ValidationFailure({ stage: 'schema-validate', message: 'x', rawOutput: JSON.stringify(base), issues: [{ path: ['__proto__'], pathText: '__proto__', kind: 'type', message: 'x' }] });
    const patchRequest = patchRequestOf(failure, base, { minTokens: 10, maxPaths: 8 });
    expect(patchRequest).toBeDefined();
    const reading = readPatchReply('{"__proto__": 5}', patchRequest as PatchRequest);
    expect(reading.type).toBe('patch');
    if (reading.type !== 'patch') return;
    expect(Object.getPrototypeOf(reading.value)).toBe(Object.prototype);
    expect(JSON.parse(reading.text).__proto__).toBe(5);
    expect((base as Record<string, unknown>).__proto__).toBe('x');
    expect(Loose).toBeDefined();
  });

  it('writes the patched numbers as the model wrote them', () => {
    const reading = readPatchReply('{"items[17].price": 21.250}', request());
    expect(reading.type === 'patch' && reading.text.includes('"price":21.250')).toBe(true);
    expect(writeJson({ a: -0, b: [1e21, 'x'] })).toBe('{"a":-0,"b":[1e+21,"x"]}');
  });
});

describe('numbers keep their literal text through a patch', () => {
  const Release = Type.Object({ version: Type.String(), notes: Type.Array(Type.Object({ line: Type.String(), size: Type.Number() })) }, { additionalProperties: false });
  const releaseValidator = toValidator(Release);
  const notes = Array.from({ length: 60 }, (_, index) => `{"line": "change ${index}", "size": ${index}.50}`);

  /** A rejected release (one size is a word) written with `version`'s literal, and its patch request. */
  function rejectedRelease(version: string, prefix = ''): { text: string; request: PatchRequest } {
    const text = `${prefix}{"version": ${version}, "notes": [${notes.map((note, index) => (index === 7 ? '{"line": "change 7", "size": "big"}' : note)).join(', ')}]}`;
    const checked = checkOutput(text, releaseValidator, { coerce: false });
    if (checked instanceof Promise || checked.ok) throw new Error('expected a synchronous failure');
    return { text, request: patchRequestOf(checked.failure, checked.value, { minTokens: 50, maxPaths: 8 }) as PatchRequest };
  }

  /** The value a reply is read as, validated with coercion. */
  const valueOf = (text: string) => {
    const checked = checkOutput(text, releaseValidator);
    if (checked instanceof Promise || !checked.ok) throw new Error(`expected a valid value: ${text.slice(0, 80)}`);
    return checked.value as { version: string; notes: { size: number }[] };
  };

  it('a number written where a string is due keeps its digits after a patch of another field, as it does without one', () => {
    for (const [literal, prefix] of [['1.10', ''], ['1e3', ''], ['2.50', 'Here it is:\n'], ['-0.0', '']] as const) {
      const { request } = rejectedRelease(literal, prefix);
      const reading = readPatchReply('{"notes[7].size": 7.50}', request);
      expect(reading.type, literal).toBe('patch');
      if (reading.type !== 'patch') continue;
      expect(valueOf(reading.text).version, literal).toBe(literal);
      expect(valueOf(`{"version": ${literal}, "notes": []}`).version, literal).toBe(literal);
    }
  });

  it('a literal rewritten to be read (".5", "2.") has no digits as written to keep: the whole value is asked for again', () => {
    // Without a patch ".5" is not taken for the string "0.5"; a patched whole written as 0.5 would be.
    expect(checkOutput('{"version": .5, "notes": []}', releaseValidator)).toMatchObject({ ok: false });
    expect(rejectedRelease('.5').request).toBeUndefined();
    expect(rejectedRelease('1.5').request).toBeDefined();
  });
});
