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
});

describe('extractJson', () => {
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

  it('reports truncated JSON as a truncated parse failure naming the closers it lacks', () => {
    const truncated = '{"title": "Pay rent", "tags": ["home", "mon';
    expect(extractJson(truncated)).toEqual({
      ok: false,
      defect: 'truncated',
      message: "The reply ends before its JSON value is complete (truncated): ']}' never closes the value opened at position 0",
    });
  });

  it('reports truncated JSON inside an unclosed fence as truncated', () => {
    const truncated = '```json\n{"title": "Pay rent", "amount": 5';
    expect(extractJson(truncated)).toEqual({
      ok: false,
      defect: 'truncated',
      message: "The reply ends before its JSON value is complete (truncated): '}' never closes the value opened at position 8",
    });
  });

  it('reports prose with no JSON at all as a parse failure', () => {
    const prose = 'I cannot help with that.';
    expect(extractJson(prose)).toEqual({ ok: false, message: parserMessage(prose) });
  });
});

describe('extractJson with brackets in the prose', () => {
  it('skips a bracketed aside before the JSON value', () => {
    const result = extractJson('As noted [1], here is the answer: {"action": "refund", "amount": 50} — thanks');
    // "[1]" is a JSON value too: without a schema the last value is taken, and that is recorded.
    expect(result).toEqual({ ok: true, value: { action: 'refund', amount: 50 }, repairs: ['prose-removed', 'last-candidate'] });
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
    '{"customer": {"name": "Ada"}, "items": [{"sku": "A1"}, ...]}',
  ])('fails on %j', (text) => {
    expect(extractJson(text).ok).toBe(false);
  });
});

describe('extractJson lossless repairs, each recorded by name', () => {
  it.each([
    ['{title: "a", amount: 5}', { title: 'a', amount: 5 }, ['unquoted-keys']],
    ["{'title': 'a'}", { title: 'a' }, ['single-quotes']],
    ['{"title": \u201ca\u201d, "note": \u2018b\u2019}', { title: 'a', note: 'b' }, ['smart-quotes']],
    ['{"done": True, "failed": False, "note": None}', { done: true, failed: false, note: null }, ['python-literals']],
    ['{\n  // the title\n  "title": "a", /* amount */ "amount": 5\n}', { title: 'a', amount: 5 }, ['comments']],
    ['[\n  {"a": 1}\n  {"a": 2}\n]', [{ a: 1 }, { a: 2 }], ['missing-comma']],
    ['{"a": 1\n "b": 2}', { a: 1, b: 2 }, ['missing-comma']],
    ['{"text": "line one\nline two\ttabbed"}', { text: 'line one\nline two\ttabbed' }, ['control-characters']],
    ['{"a":\u00a01,\u3000"b": 2}', { a: 1, b: 2 }, ['odd-whitespace']],
    ['[1, 2,]', [1, 2], ['trailing-comma']],
    ['{, "a": 1}', { a: 1 }, ['leading-comma']],
    ['callback({"a": 1});', { a: 1 }, ['prose-removed']],
    ['```json\n{"a": 1}\n```', { a: 1 }, ['fence-stripped']],
  ])('repairs %j', (text, value, repairs) => {
    expect(extractJson(text)).toEqual({ ok: true, value, repairs });
  });

  it('records several repairs of one value once each', () => {
    const result = extractJson("Here: {a: 'x', b: True, // note\n c: [1, 2,],}");
    expect(result).toEqual({
      ok: true,
      value: { a: 'x', b: true, c: [1, 2] },
      repairs: ['prose-removed', 'unquoted-keys', 'single-quotes', 'python-literals', 'comments', 'trailing-comma'],
    });
  });
});

describe('extractJson never accepts a lossy repair', () => {
  it.each([
    ['{"items": [1, 2, ...]}', 'ellipsis', "'...' stands where content was left out"],
    ['{"status": pending}', 'unquoted-value', "the bare word 'pending' stands where a value belongs"],
    ['{"amount": undefined}', 'unquoted-value', "the bare word 'undefined'"],
    ['{"amount": 12 EUR}', 'unquoted-value', "the bare word 'EUR' follows a value on the same line"],
    ['{"text": "a" + "b"}', 'string-concatenation', "values are joined with '+'"],
    ['{"a": , "b": 1}', 'missing-value', "a value is missing before ','"],
    ['{"a"\n 1}', 'missing-colon', "a ':' is missing after a property name"],
    ['{"a", "b": 1}', 'missing-colon', "a ':' is missing after a property name"],
    ['[, 1, 2]', 'missing-value', "the array's first item"],
    ['{"title": "a", "amount": 5', 'truncated', "'}' never closes the value"],
    ['{"title": "a", "note": "unfinished', 'truncated', 'never closes the value'],
  ] as const)('refuses %j as %s', (text, defect, words) => {
    const result = extractJson(text);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.defect).toBe(defect);
    expect(result.message).toContain(words);
  });

  it('never returns the complete draft when a later value is truncated', () => {
    const result = extractJson('Draft: {"a": 1}\nFinal: {"a": 2, "b": [3');
    expect(result).toMatchObject({ ok: false, defect: 'truncated' });
  });
});

describe('extractJson with several values', () => {
  it('takes the last complete top-level value and records it', () => {
    expect(extractJson('Draft: {"a": 1}\nFinal: {"a": 2}')).toEqual({ ok: true, value: { a: 2 }, repairs: ['prose-removed', 'last-candidate'] });
  });

  it('reads one value per fence', () => {
    expect(extractJson('Example:\n```json\n{"a": 0}\n```\nAnswer:\n```json\n{"a": 5}\n```')).toEqual({
      ok: true,
      value: { a: 5 },
      repairs: ['fence-stripped', 'last-candidate'],
    });
  });
});

describe('extractJson is linear in its input', () => {
  const cpuMs = (work: () => void): number => {
    const before = process.cpuUsage();
    work();
    const used = process.cpuUsage(before);
    return (used.user + used.system) / 1000;
  };

  const size = 2 * 1024 * 1024;

  it.each([
    ['balanced non-JSON brackets', '{a}[b] '],
    ['mismatched brackets', '{[}]'],
    ['empty arrays', '[]'],
    ['bracketed asides', 'see [x] and [y] '],
    ['deep balanced brackets', ''],
    ['unclosed fences', '```\n'],
  ])('handles 2 MB of %s in under a second', (name, unit) => {
    const text = name === 'deep balanced brackets' ? `${'{['.repeat(size / 4)}${']}'.repeat(size / 4)}` : unit.repeat(Math.ceil(size / unit.length));
    // CPU time, not wall time, so a loaded machine does not fail it; measured at about 0.2 s or less.
    expect(cpuMs(() => extractJson(text))).toBeLessThan(1000);
  }, 60_000);

  it('repairs 2 MB of items missing commas in linear time', () => {
    // One value repaired losslessly: scanned, repaired and verified by a second scan (about 1.5 s measured).
    const text = `[${'{"a": 1}\n'.repeat(size / 9)}]`;
    let result: ReturnType<typeof extractJson> | undefined;
    expect(cpuMs(() => (result = extractJson(text)))).toBeLessThan(6000);
    expect(result).toMatchObject({ ok: true, repairs: ['missing-comma'] });
    // The bound is on CPU time: a loaded machine's wall clock must not fail it.
  }, 60_000);

  it('refuses a reply of more than 1,000 values without looking at each, and takes one of a few', () => {
    const many = extractJson('{"a": 1} '.repeat(1_001));
    expect(many).toMatchObject({ ok: false, defect: 'several-values' });
    expect(many.ok === false && many.message).toContain('more than 1000 bracketed values');
    expect(extractJson('{"a": 1} '.repeat(1_000))).toMatchObject({ ok: true, value: { a: 1 } });
    expect(extractJson(`[${'[1], '.repeat(5_000)}[2]]`)).toMatchObject({ ok: true, repairs: [] });
  });
});

describe('extractJson never returns a value JSON.parse would silently change', () => {
  it.each([
    ['{"status": "open", "status": "closed"}', 'duplicate-key', "the property 'status' is given twice"],
    ['{"status": "open", "status": "open"}', 'duplicate-key', "the property 'status' is given twice"],
    ["Here: {'items': [{'qty': 1, 'qty': 2}],}", 'duplicate-key', "the property 'qty' is given twice"],
    ['{"id": 9007199254740993}', 'imprecise-number', 'it would become 9007199254740992'],
    ['{"id": 12345678901234567890, "a": [1,]}', 'imprecise-number', 'it would become 12345678901234567000'],
    ['{"total": 1e400}', 'imprecise-number', 'is too large for a number'],
    ['{"rate": 1e-400}', 'imprecise-number', 'is too small for a number (it would become 0)'],
    ['```json\n9007199254740993\n```', 'imprecise-number', 'it would become 9007199254740992'],
  ] as const)('refuses %j as %s', (text, defect, words) => {
    const result = extractJson(text);
    expect(result).toMatchObject({ ok: false, defect });
    expect(result.ok === false && result.message).toContain(words);
  });

  it('refuses them with repair off too', () => {
    expect(extractJson('{"a": 1, "a": 2}', { repair: false })).toMatchObject({ ok: false, defect: 'duplicate-key' });
  });

  it('keeps numbers a double holds as written, and equal names in different objects', () => {
    expect(extractJson('{"a": 9007199254740992, "b": 1e23, "c": 0.1, "d": 1.5e1, "e": 3.14159265358979323846}')).toEqual({
      ok: true,
      value: { a: 9007199254740992, b: 1e23, c: 0.1, d: 15, e: Math.PI },
      repairs: [],
    });
    expect(extractJson('[{"a": 1}, {"a": 2}]')).toEqual({ ok: true, value: [{ a: 1 }, { a: 2 }], repairs: [] });
  });
});

describe('extractJson never guesses where items of an array begin and end', () => {
  it.each([
    ['{"prices": [1 500, 2 250]}', "before '5'"],
    ['{"tags": ["new" "york"]}', 'before \'\\"\''],
    ["{'tags': ['a' 'b']}", "before '''"],
  ])('refuses scalars side by side on one line: %j', (text, words) => {
    const result = extractJson(text);
    expect(result).toMatchObject({ ok: false, defect: 'syntax' });
    expect(result.ok === false && result.message).toContain(`two values stand side by side with no comma between them, ${words}`);
  });

  it('refuses two strings on their own lines in an array: one string split in two (as Python joins them) or two items', () => {
    const result = extractJson('{"lines": [\n  "The order arrived "\n  "broken"\n]}');
    expect(result).toMatchObject({ ok: false, defect: 'syntax' });
    expect(result.ok === false && result.message).toContain('one string split in two, or two items');
    expect(extractJson('[\n  1\n  2\n]')).toEqual({ ok: true, value: [1, 2], repairs: ['missing-comma'] });
  });

  it('still inserts the comma between containers on one line, and between properties', () => {
    expect(extractJson('[{"a": 1} {"a": 2}]')).toEqual({ ok: true, value: [{ a: 1 }, { a: 2 }], repairs: ['missing-comma'] });
    expect(extractJson('{"a": 1 "b": 2}')).toEqual({ ok: true, value: { a: 1, b: 2 }, repairs: ['missing-comma'] });
  });

  it.each(['[,,1]', '[,]', '{,}'])('refuses %j: more than one leading comma, or one alone, stands for a missing value', (text) => {
    expect(extractJson(text)).toMatchObject({ ok: false, defect: 'missing-value' });
  });
});

describe('extractJson and comments', () => {
  it.each([
    '{"items": [\n  {"a": 1},\n  {"a": 2}\n  // ... more items\n]}',
    '{"items": [{"a": 1}, /* \u2026 */]}',
  ])('refuses a comment with an ellipsis, which stands for content left out: %j', (text) => {
    expect(extractJson(text)).toMatchObject({ ok: false, defect: 'ellipsis' });
  });

  it('reads past brackets inside a comment', () => {
    expect(extractJson('{\n  "a": 1, // see [note\n  "b": 2 /* {"b": 3} */\n}')).toEqual({ ok: true, value: { a: 1, b: 2 }, repairs: ['comments'] });
  });
});

describe('extractJson never returns an earlier value in place of a later one it cannot use', () => {
  it.each([
    ['Draft: {"a": 1}\nFinal: {"a": 2, "b": pending}', 'unquoted-value'],
    ['Draft: {"a": 1}\nFinal: {"a": 2, ...}', 'ellipsis'],
    ['[1, 2] and then [1, 2, 3 4]', 'syntax'],
  ] as const)('fails on %j (%s)', (text, defect) => {
    expect(extractJson(text)).toMatchObject({ ok: false, defect });
  });

  it('ignores braces in prose that hold no property', () => {
    expect(extractJson('{"a": 1}\nReplace {name} as needed.')).toEqual({ ok: true, value: { a: 1 }, repairs: ['prose-removed'] });
  });
});

describe('extractJson with fences and prose', () => {
  it('reads the prose around fences too', () => {
    expect(extractJson('The format:\n```json\n{"a": 0}\n```\nMy answer: {"a": 42}')).toEqual({ ok: true, value: { a: 42 }, repairs: ['prose-removed', 'last-candidate'] });
  });

  it('does not take an unclosed bracket in the prose before a fence for a cut-off answer', () => {
    expect(extractJson('Result for {customer:\n```json\n{"a": 1}\n```')).toEqual({ ok: true, value: { a: 1 }, repairs: ['fence-stripped'] });
    expect(extractJson('```json\n{"a": 1}\n```\nFinal: {"a": 2, "b": [3')).toMatchObject({ ok: false, defect: 'truncated' });
  });

  it('treats a fence inside a string of the value as part of the string', () => {
    expect(extractJson("{'doc': 'Call it:\n```json\n{\"a\": 5}\n```', 'a': 7}")).toEqual({
      ok: true,
      value: { doc: 'Call it:\n```json\n{"a": 5}\n```', a: 7 },
      repairs: ['single-quotes', 'control-characters'],
    });
  });
});
