import { describe, expect, it } from 'vitest';
import { extractJson } from './extract-json';

function parserMessage(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected the text not to parse');
}

describe('extractJson', () => {
  it('parses clean JSON with no repairs', () => {
    const result = extractJson('{"title": "Pay rent", "amount": 50, "tags": ["home"]}');
    expect(result).toEqual({ ok: true, value: { title: 'Pay rent', amount: 50, tags: ['home'] }, repairs: [] });
  });

  it('parses clean JSON arrays and scalars with no repairs', () => {
    expect(extractJson('[1, 2, 3]')).toEqual({ ok: true, value: [1, 2, 3], repairs: [] });
    expect(extractJson(' 42 ')).toEqual({ ok: true, value: 42, repairs: [] });
  });

  it('strips a ```json fence', () => {
    const result = extractJson('```json\n{"title": "Pay rent", "amount": 50}\n```');
    expect(result).toEqual({ ok: true, value: { title: 'Pay rent', amount: 50 }, repairs: ['fence-stripped'] });
  });

  it('strips a fence surrounded by prose', () => {
    const result = extractJson('Here you go:\n```json\n{"a": 1}\n```\nHope that helps!');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value).toEqual({ a: 1 });
    expect(result.repairs).toContain('fence-stripped');
  });

  it('removes prose before and after an object', () => {
    const result = extractJson('Sure! Here is the task: {"title": "Pay rent", "done": false} Let me know if you need more.');
    expect(result).toEqual({ ok: true, value: { title: 'Pay rent', done: false }, repairs: ['prose-removed'] });
  });

  it('removes prose around an array', () => {
    const result = extractJson('The list is [1, 2, {"x": [3]}] as requested.');
    expect(result).toEqual({ ok: true, value: [1, 2, { x: [3] }], repairs: ['prose-removed'] });
  });

  it('removes trailing commas in objects and arrays', () => {
    const result = extractJson('{"a": 1, "b": [1, 2, 3,], "c": {"d": true,},}');
    expect(result).toEqual({ ok: true, value: { a: 1, b: [1, 2, 3], c: { d: true } }, repairs: ['trailing-comma'] });
  });

  it('removes a trailing comma followed by whitespace and newlines', () => {
    const result = extractJson('{\n  "a": 1,\n  "b": 2,\n}\n');
    expect(result).toEqual({ ok: true, value: { a: 1, b: 2 }, repairs: ['trailing-comma'] });
  });

  it('turns single-quoted strings into JSON strings', () => {
    const result = extractJson("{'title': 'Pay rent', 'amount': 50}");
    expect(result).toEqual({ ok: true, value: { title: 'Pay rent', amount: 50 }, repairs: ['single-quotes'] });
  });

  it('keeps double quotes embedded in single-quoted strings', () => {
    const result = extractJson(`{'quote': 'she said "hi" to me'}`);
    expect(result).toEqual({ ok: true, value: { quote: 'she said "hi" to me' }, repairs: ['single-quotes'] });
  });

  it('keeps an escaped single quote inside a single-quoted string', () => {
    const result = extractJson("{'note': 'it\\'s fine'}");
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value).toEqual({ note: "it's fine" });
  });

  it('keeps apostrophes inside double-quoted strings while repairing elsewhere', () => {
    const result = extractJson(`{"note": "it's done", 'other': 'x',}`);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value).toEqual({ note: "it's done", other: 'x' });
    expect(result.repairs).toEqual(['single-quotes', 'trailing-comma']);
  });

  it('does not mangle strings that contain braces, brackets and commas', () => {
    const text = 'Result: {"text": "a, } b", "list": ["x,]", "{y}",], "code": "if (a) { b(); },",} done';
    const result = extractJson(text);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value).toEqual({ text: 'a, } b', list: ['x,]', '{y}'], code: 'if (a) { b(); },' });
    expect(result.repairs).toEqual(['prose-removed', 'trailing-comma']);
  });

  it('records every repair it made, in order', () => {
    const result = extractJson("Here:\n```json\n{'a': [1, 2,],}\n```\nThanks");
    expect(result).toEqual({ ok: true, value: { a: [1, 2] }, repairs: ['fence-stripped', 'single-quotes', 'trailing-comma'] });
  });

  it('leaves failures alone when repair is false', () => {
    const fenced = '```json\n{"a": 1}\n```';
    expect(extractJson(fenced, { repair: false })).toEqual({ ok: false, message: parserMessage(fenced) });
    const trailing = '{"a": 1,}';
    expect(extractJson(trailing, { repair: false })).toEqual({ ok: false, message: parserMessage(trailing) });
    const single = "{'a': 1}";
    expect(extractJson(single, { repair: false })).toEqual({ ok: false, message: parserMessage(single) });
  });

  it('still parses clean JSON when repair is false', () => {
    expect(extractJson('{"a": 1}', { repair: false })).toEqual({ ok: true, value: { a: 1 }, repairs: [] });
  });

  it('reports truncated JSON as a parse failure with the parser message', () => {
    const truncated = '{"title": "Pay rent", "tags": ["home", "mon';
    const result = extractJson(truncated);
    expect(result).toEqual({ ok: false, message: parserMessage(truncated) });
    if (result.ok) return;
    expect(result.message.length).toBeGreaterThan(0);
  });

  it('reports truncated JSON inside a fence with the parser message of the original text', () => {
    const truncated = '```json\n{"title": "Pay rent", "amount": 5';
    expect(extractJson(truncated)).toEqual({ ok: false, message: parserMessage(truncated) });
  });

  it('reports prose with no JSON at all as a parse failure', () => {
    const prose = 'I cannot help with that.';
    expect(extractJson(prose)).toEqual({ ok: false, message: parserMessage(prose) });
  });
});

describe('extractJson with brackets in the prose', () => {
  it('skips a bracketed aside before the JSON value', () => {
    const result = extractJson('As noted [1], here is the answer: {"action": "refund", "amount": 50} — thanks');
    expect(result).toEqual({ ok: true, value: { action: 'refund', amount: 50 }, repairs: ['prose-removed'] });
  });
});

describe('extractJson with unbalanced brackets or apostrophes in the prose', () => {
  it.each([
    ["[Note: it's below] {\"a\": 1}", { a: 1 }],
    ['Result [draft:\n{"a": 1}', { a: 1 }],
  ])('finds the value in %j', (text, value) => {
    const result = extractJson(text);
    expect(result.ok && result.value).toEqual(value);
  });
});

describe('extractJson never returns an inner object of a broken or truncated value', () => {
  it.each([
    '{"customer": {"name": "Ada", "email": "ada@example.com"}, "items": [{"sku": "A1", "qty": 2}',
    '{customer: {"name": "Ada"}}',
  ])('fails on %j', (text) => {
    expect(extractJson(text).ok).toBe(false);
  });
});
