import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { check, outcome } from '../testing/check-output-sync';

const NullableName = Type.Union([Type.String(), Type.Null()]);

describe("a schema-aligned parser's cases: one lossless reading each, or refused", () => {
  it('the bare word None where a string or null is due is the text or null: refused, and each reading is taken where only it validates', () => {
    expect(outcome('None', NullableName)).toEqual({ refused: 'several-values' });
    expect(check('None', NullableName)).toMatchObject({ ok: false, failure: { message: expect.stringContaining('null or the text "None"') } });
    expect(outcome('True', Type.Union([Type.Boolean(), Type.String()]))).toEqual({ refused: 'several-values' });
    expect(outcome('None', Type.String())).toEqual({ value: 'None' });
    expect(outcome('None', Type.Null())).toEqual({ value: null });
    // JSON's own null is JSON, and a quoted word is a string.
    expect(outcome('null', NullableName)).toEqual({ value: null });
    expect(outcome('"None"', NullableName)).toEqual({ value: 'None' });
  });

  it('bare text for a number-or-string root is the string: no number reads from it', () => {
    for (const schema of [Type.Union([Type.Number(), Type.String()]), Type.Union([Type.Integer(), Type.String()]), { type: ['integer', 'string'] }]) {
      expect(check('The order arrived broken', schema)).toMatchObject({ ok: true, value: 'The order arrived broken', repairs: ['bare-string'] });
      expect(outcome('5 apples', schema)).toEqual({ value: '5 apples' });
    }
    expect(outcome('12.5', Type.Union([Type.Number(), Type.String()]))).toEqual({ value: 12.5 });
    expect(outcome('"12.5"', Type.Union([Type.Number(), Type.String()]))).toEqual({ value: '12.5' });
    // Without a string branch, bare text is still refused.
    expect(outcome('5 apples', Type.Union([Type.Number(), Type.Null()]))).toEqual({ refused: 'json-parse' });
  });

  it('bare literals with text outside ASCII, diacritics or emoji, at the root, in an object and in a list', () => {
    const Drink = { enum: ['☕ Café', '🍵 Thé', '¡Hola!'] };
    expect(outcome('Café ☕', { const: 'Café ☕' })).toEqual({ value: 'Café ☕' });
    expect(outcome('{"drink": ¡Hola!}', { type: 'object', properties: { drink: Drink } })).toEqual({ value: { drink: '¡Hola!' } });
    expect(outcome('{"drink": ☕ Café}', { type: 'object', properties: { drink: Drink } })).toEqual({ value: { drink: '☕ Café' } });
    expect(outcome('[☕ Café, 🍵 Thé]', { type: 'array', items: Drink })).toEqual({ value: ['☕ Café', '🍵 Thé'] });
    // Still only a value the schema names: never free text, never a placeholder.
    expect(outcome('{"drink": ☕ Coffee}', { type: 'object', properties: { drink: Drink } })).toEqual({ refused: 'unquoted-value' });
    expect(outcome('{"note": ☕ Coffee}', { type: 'object', properties: { note: Type.String() } })).toEqual({ refused: 'unquoted-value' });
    expect(outcome('{"drink": …}', { type: 'object', properties: { drink: Drink } })).toMatchObject({ refused: expect.any(String) });
  });

  it('unquoted numeric and null map keys, kept as written where JavaScript and Python agree', () => {
    const Strings = { type: 'object', additionalProperties: Type.String() };
    expect(check('{\n  5: "b",\n  2.17: "e",\n  null: "n"\n}', Strings)).toMatchObject({ ok: true, value: { 5: 'b', '2.17': 'e', null: 'n' }, repairs: ['unquoted-keys'] });
    // 1.50 is "1.5" to both, 1e3 is "1000" or "1000.0", None is "null" to Python and "None" to JavaScript.
    for (const text of ['{1.50: "b"}', '{1e3: "b"}', '{None: "b"}', '{True: "b"}']) expect(check(text, Strings).ok, text).toBe(false);
  });

  it('an int where a string is due inside a class-or-map union: every branch reads it as its digits', () => {
    const Foo = Type.Object({ a: Type.String(), b: Type.String() });
    const Strings = Type.Record(Type.String(), Type.String());
    for (const schema of [Type.Union([Foo, Strings]), Type.Union([Strings, Foo])]) {
      expect(check('{"a": 1, "b": "hello"}', schema)).toMatchObject({ ok: true, value: { a: '1', b: 'hello' }, coercions: [{ path: ['a'], kind: 'string-from-number', from: 1, to: '1' }] });
    }
    expect(outcome('{"a": 1.10, "b": "x"}', Strings)).toEqual({ value: { a: '1.10', b: 'x' } });
    // Branches that read it differently (a string, or a number as it is) leave it as written.
    expect(outcome('{"a": 1}', Type.Union([Type.Object({ a: Type.String() }), Type.Object({ a: Type.Boolean() })]))).toEqual({ refused: 'schema-validate' });
    expect(outcome('{"a": 1}', Type.Union([Type.Object({ a: Type.String() }), Type.Object({ a: Type.Number() })]))).toEqual({ value: { a: 1 } });
    expect(outcome('[1, "x"]', Type.Array(Type.Union([Type.String(), Type.Null()])))).toEqual({ value: ['1', 'x'] });
  });

  it('a fenced value with an info string after its language tag', () => {
    expect(check('```json title="answer.json"\n"hello"\n```', Type.String())).toMatchObject({ ok: true, value: 'hello', repairs: ['fence-stripped'] });
    expect(check('```json title="x"\n42\n```', Type.Number())).toMatchObject({ ok: true, value: 42 });
    expect(check('```json {"a": 2}\n{"a": 1}\n```', Type.Object({ a: Type.Number() }))).toMatchObject({ ok: true, value: { a: 1 }, repairs: ['fence-stripped'] });
    // Code in a fence of another language, info string or not, holds no answer.
    expect(outcome('```python title="x"\nx = {"a": 2}\n```\n{"a": 1}', Type.Object({ a: Type.Number() }))).toEqual({ value: { a: 1 } });
  });
});

describe('names that are not what they look like', () => {
  it('toString, constructor and __proto__ are names and words like any other', () => {
    expect(outcome('{toString: 1, constructor: 2}', { type: 'object' })).toEqual({ value: { toString: 1, constructor: 2 } });
    expect(outcome('{"a": toString}', { type: 'object', properties: { a: { enum: ['toString'] } } })).toEqual({ value: { a: 'toString' } });
    expect(outcome('{"__proto__": "5"}', { type: 'object', properties: { x: Type.Number() } })).toEqual({ value: { ['__proto__']: '5' } });
  });
});
