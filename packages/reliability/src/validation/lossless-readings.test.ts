import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { toValidator } from './to-validator';
import { coerceToSchema } from './coerce-to-schema';
import { check, outcome } from '../testing/check-output-sync';
import { checkOutput } from './validate-output';

const Size = Type.Union([Type.Literal('ONE'), Type.Literal('TWO')]);
const City = { type: 'string', enum: ['São Paulo', 'Rio de Janeiro'] };
const Foo = Type.Object({ foo: Type.Union([Type.Literal('FOO'), Type.Literal('BAR')]) }, { additionalProperties: false });
const Code = Type.Object({ type: Type.Literal('code'), code: Type.String() }, { additionalProperties: false });
const Person = Type.Object({ name: Type.String(), age: Type.Optional(Type.Number()) }, { additionalProperties: false });
const Unit = { type: 'object', properties: { unit: { type: 'string', enum: ['mW', 'kW'] } }, required: ['unit'], additionalProperties: false };

describe('lossless readings of replies as models write them, each recorded', () => {
  it('reads a bare enum value or literal, ASCII or not, at the root, in an object and in a list', () => {
    expect(check('TWO', Size)).toMatchObject({ ok: true, value: 'TWO', repairs: ['bare-string'] });
    expect(check('São Paulo', City)).toMatchObject({ ok: true, value: 'São Paulo', repairs: ['bare-string'] });
    expect(check('{foo: FOO}', Foo)).toMatchObject({ ok: true, value: { foo: 'FOO' }, repairs: ['unquoted-keys'], coercions: [{ path: ['foo'], kind: 'enum-unquoted', from: 'FOO', to: 'FOO' }] });
    expect(check('{"city": Rio de Janeiro}', { type: 'object', properties: { city: City } })).toMatchObject({ ok: true, value: { city: 'Rio de Janeiro' } });
    expect(check('[ONE, TWO]', Type.Array(Size))).toMatchObject({ ok: true, value: ['ONE', 'TWO'], coercions: [{ path: [0], kind: 'enum-unquoted' }, { path: [1], kind: 'enum-unquoted' }] });
  });

  it('reads strings quoted the Python, JavaScript or markdown way', () => {
    expect(check('{"type": "code", "code": """print("Hello, world!")"""}', Code)).toMatchObject({ ok: true, value: { code: 'print("Hello, world!")' }, repairs: ['triple-quotes'] });
    expect(check("{'type': 'code', 'code': '''it's \"quoted\"'''}", Code)).toMatchObject({ ok: true, value: { code: 'it\'s "quoted"' } });
    expect(check('{"type": "code", "code": `print("Hello, world!")`}', Code)).toMatchObject({ ok: true, value: { code: 'print("Hello, world!")' }, repairs: ['backtick-quotes'] });
    const block = 'Here it is:\n\n{\n  "type": "code",\n  "code": ```typescript\nconst x = { a: [1, 2] };\nconsole.log(`x is ${x}`);\n```\n}';
    expect(check(block, Code)).toMatchObject({ ok: true, value: { code: 'const x = { a: [1, 2] };\nconsole.log(`x is ${x}`);' } });
    expect((check(block, Code) as { repairs: readonly string[] }).repairs).toContain('code-block-string');
    // Python's text as written: the line breaks inside the quotes are kept, nothing is dedented.
    expect(check('{"type": "code", "code": """\n  a\n"""}', Code)).toMatchObject({ ok: true, value: { code: '\n  a\n' } });
  });

  it('reads numbers where only strings are expected as the digits were written', () => {
    expect(check('[1, 2, 3]', Type.Array(Type.String()))).toMatchObject({
      ok: true,
      value: ['1', '2', '3'],
      coercions: [
        { path: [0], kind: 'string-from-number', from: 1, to: '1' },
        { path: [1], kind: 'string-from-number', from: 2, to: '2' },
        { path: [2], kind: 'string-from-number', from: 3, to: '3' },
      ],
    });
    expect(check('{"version": 1.10, "code": 1e3}', Type.Object({ version: Type.String(), code: Type.String() }))).toMatchObject({ ok: true, value: { version: '1.10', code: '1e3' } });
    expect(check("{'zip': 2.50}", Type.Object({ zip: Type.String() }))).toMatchObject({ ok: true, value: { zip: '2.50' } });
    // The digits follow the value when another coercion moves it: a renamed key, a one-item list, a value made a list.
    expect(check('{"Version": 1.10}', Type.Object({ version: Type.String() }, { additionalProperties: false }))).toMatchObject({ ok: true, value: { version: '1.10' } });
    expect(check('[1.10]', Type.String())).toMatchObject({ ok: true, value: '1.10' });
    expect(check('{"tags": 1.50}', Type.Object({ tags: Type.Array(Type.String()) }))).toMatchObject({ ok: true, value: { tags: ['1.50'] } });
    expect(check('2', Type.String())).toMatchObject({ ok: true, value: '2', coercions: [{ kind: 'string-from-number', from: 2, to: '2' }] });
  });

  it('reads bare True/False for a boolean root and bare text for a string root', () => {
    expect(check('True', Type.Boolean())).toMatchObject({ ok: true, value: true, repairs: ['python-literals'] });
    expect(check('False', Type.Boolean())).toMatchObject({ ok: true, value: false });
    expect(check('The order arrived broken, refund it.\n', Type.String())).toMatchObject({ ok: true, value: 'The order arrived broken, refund it.', repairs: ['bare-string'] });
  });

  it('renames keys that differ from exactly one of the schema by surrounding spaces or case', () => {
    expect(check('{" name ": "Ada", "AGE": 36}', Person)).toMatchObject({
      ok: true,
      value: { name: 'Ada', age: 36 },
      coercions: [
        { path: [' name '], kind: 'key-renamed', from: ' name ', to: 'name' },
        { path: ['AGE'], kind: 'key-renamed', from: 'AGE', to: 'age' },
      ],
    });
    expect(Object.keys((check('{"AGE": 36, "Name": "Ada"}', Person) as { value: object }).value)).toEqual(['age', 'name']);
  });

  it('reads unquoted numeric keys and a one-item list where one value is expected', () => {
    expect(check('{5: "b", 10: "c"}', Type.Object({ 5: Type.String(), 10: Type.String() }))).toMatchObject({ ok: true, value: { 5: 'b', 10: 'c' }, repairs: ['unquoted-keys'] });
    expect(check('["TWO"]', Size)).toMatchObject({ ok: true, value: 'TWO', coercions: [{ path: [], kind: 'array-to-single', from: ['TWO'], to: 'TWO' }] });
    expect(check('{"age": [36], "name": ["Ada"]}', Person)).toMatchObject({ ok: true, value: { name: 'Ada', age: 36 } });
  });

  it("reads the JSON-repair library's lossless cases", () => {
    expect(check('{2: 2}', Type.Object({ 2: Type.Number() }))).toMatchObject({ ok: true, value: { 2: 2 } });
    expect(check('[2., 3]', Type.Array(Type.Number()))).toMatchObject({ ok: true, value: [2, 3], repairs: ['bare-decimal-point'] });
    expect(check('{`a´: `b´}', Type.Object({ a: Type.String() }))).toMatchObject({ ok: true, value: { a: 'b' }, repairs: ['backtick-quotes'] });
    expect(check('["a" 2]', Type.Array(Type.Union([Type.String(), Type.Number()])))).toMatchObject({ ok: true, value: ['a', 2], repairs: ['missing-comma'] });
    expect(check('{\\"a\\": \\"x\\\\ny\\", \\"b\\": [1]}', Type.Object({ a: Type.String(), b: Type.Array(Type.Number()) }))).toMatchObject({ ok: true, value: { a: 'x\ny', b: [1] }, repairs: ['escaped-json'] });
    expect(check('{"a" 2}', Type.Object({ a: Type.Number() }))).toMatchObject({ ok: true, value: { a: 2 }, repairs: ['missing-colon'] });
  });
});

describe('near misses of each reading stay refused', () => {
  it('bare text that names no allowed value, or more than one, or where any string goes', () => {
    expect(outcome('{foo: BAZ}', Foo)).toEqual({ refused: 'unquoted-value' });
    expect(outcome('{foo: FOO BAR}', Foo)).toEqual({ refused: 'unquoted-value' });
    expect(outcome('{"name": Ada}', Person)).toEqual({ refused: 'unquoted-value' });
    expect(outcome('{"name": undefined}', Person)).toEqual({ refused: 'unquoted-value' });
    // Accents are never added or dropped.
    expect(outcome('{"city": Sao Paulo}', { type: 'object', properties: { city: City } })).toEqual({ refused: 'unquoted-value' });
    expect(outcome('Sao Paulo', City)).toEqual({ refused: 'schema-validate' });
    expect(outcome('{"size": two}', { type: 'object', properties: { size: { enum: ['TWO', 'two'] } } })).toEqual({ value: { size: 'two' } });
    expect(outcome('{"size": Two}', { type: 'object', properties: { size: { enum: ['TWO', 'two'] } } })).toEqual({ refused: 'unquoted-value' });
    expect(outcome('The answer is TWO', Size)).toEqual({ refused: 'schema-validate' });
    // Without coercion no schema resolves bare text.
    const strict = checkOutput('{foo: FOO}', toValidator(Foo), { coerce: false });
    expect(strict).toMatchObject({ ok: false, failure: { defect: 'unquoted-value' } });
  });

  it('quoted forms that hold code or never close', () => {
    expect(outcome('{"type": "code", "code": `hello ${name}`}', Code)).toEqual({ refused: 'syntax' });
    // The closers are all there after the quotes: named as a string that never closes, not as a cut-off reply.
    expect(outcome('{"type": "code", "code": """never closed}', Code)).toEqual({ refused: 'unescaped-quote' });
    expect(outcome('{"type": "code", "code": ```python\nprint(1)\n', Code)).toEqual({ refused: 'truncated' });
    // "\/" is "/" in JSON and "\\/" in Python.
    expect(outcome('{"type": "code", "code": """a\\/b"""}', Code)).toEqual({ refused: 'syntax' });
  });

  it('a string the model wrote is never taken for bare text, whatever it holds', () => {
    const Action = Type.Object({ action: Type.Union([Type.Literal('refund'), Type.Literal('reject')]) });
    expect(outcome('{"action": "\uE000refund"}', Action)).toEqual({ refused: 'schema-validate' });
    const both = Type.Object({ action: Action.properties.action, note: Action.properties.action });
    expect(outcome('{"action": "\uE000refund", "note": refund}', both)).toEqual({ refused: 'unquoted-value' });
    expect(outcome('{"action": "\\uE000refund", "note": refund}', both)).toEqual({ refused: 'unquoted-value' });
    expect(outcome('{"action": "\\ue000refund", "note": refund}', both)).toEqual({ refused: 'unquoted-value' });
    // Tool arguments are coerced without a parser's marks.
    expect(coerceToSchema({ action: '\uE000refund' }, Action)).toEqual({ value: { action: '\uE000refund' }, coercions: [] });
  });

  it('numbers where strings are expected when a number is allowed too, or no literal exists', () => {
    // "2." and ".5" were rewritten to be read: their digits as written are not in the text any more.
    expect(outcome('[2., .5]', Type.Array(Type.String()))).toEqual({ refused: 'schema-validate' });
    expect(outcome('[1, "b"]', Type.Array(Type.Union([Type.String(), Type.Number()])))).toEqual({ value: [1, 'b'] });
    expect(outcome('{"id": 0123}', Type.Object({ id: Type.String() }))).toEqual({ refused: 'unquoted-value' });
    expect(outcome('[true]', Type.Array(Type.String()))).toEqual({ refused: 'schema-validate' });
  });

  it('bare text for anything but a string root, or text a quote opens', () => {
    expect(outcome('5 apples', Type.Number())).toEqual({ refused: 'json-parse' });
    expect(outcome('"Hello', Type.String())).toEqual({ refused: 'json-parse' });
    expect(outcome("'Hello", Type.String())).toEqual({ refused: 'json-parse' });
    expect(outcome('He said "stop" twice', Type.String())).toEqual({ refused: 'json-parse' });
    expect(outcome('```\nhello\n```', Type.String())).toEqual({ refused: 'json-parse' });
    expect(outcome('TRUE', Type.Boolean())).toEqual({ refused: 'json-parse' });
    expect(outcome('   ', Type.String())).toEqual({ refused: 'json-parse' });
  });

  it('keys that match several properties, collide, or whose case carries meaning', () => {
    expect(outcome('{"Name": "Ada", "name": "Bob"}', Person)).toEqual({ refused: 'schema-validate' });
    expect(outcome('{"NAME": "Ada"}', { type: 'object', properties: { name: { type: 'string' }, Name: { type: 'string' } }, additionalProperties: false })).toEqual({ refused: 'schema-validate' });
    expect(outcome('{"MW": 5}', { type: 'object', properties: { mW: { type: 'number' } }, required: ['mW'], additionalProperties: false })).toEqual({ refused: 'schema-validate' });
    expect(outcome('{"firstname": "Ada"}', { type: 'object', properties: { firstName: { type: 'string' } }, required: ['firstName'], additionalProperties: false })).toEqual({ refused: 'schema-validate' });
    expect(outcome('{" name ": "Ada", " Name": "Bob"}', Person)).toEqual({ refused: 'schema-validate' });
  });

  it('numeric keys JavaScript would rewrite, and lists of more or fewer than one item', () => {
    for (const [text, key] of [['{1.50: "b"}', '1.5'], ['{05: "b"}', '5'], ['{1e3: "b"}', '1000'], ['{-1: "b"}', '-1'], ['{12345678901234567890: "b"}', '12345678901234567000']] as const) {
      expect(check(text, Type.Object({ [key]: Type.String() })).ok, text).toBe(false);
    }
    expect(outcome('["ONE", "TWO"]', Size)).toEqual({ refused: 'schema-validate' });
    expect(outcome('[]', Size)).toEqual({ refused: 'schema-validate' });
    expect(outcome('[["TWO"]]', Size)).toEqual({ refused: 'schema-validate' });
  });

  it("the JSON-repair library's cases whose fix is a guess", () => {
    const list = Type.Array(Type.Union([Type.String(), Type.Number()]));
    expect(outcome('[2 "a"]', list)).toEqual({ refused: 'syntax' });
    expect(outcome('["a" "b"]', list)).toEqual({ refused: 'syntax' });
    expect(outcome('[1 500]', list)).toEqual({ refused: 'syntax' });
    expect(outcome('{"a"\n2}', Type.Object({ a: Type.Number() }))).toEqual({ refused: 'missing-colon' });
    expect(outcome('[2.e5]', Type.Array(Type.Number()))).toEqual({ refused: 'unquoted-value' });
    expect(outcome('2.', Type.Number())).toEqual({ refused: 'json-parse' });
    expect(outcome('{\\"a\\": "b"}', Type.Object({ a: Type.String() }))).toEqual({ refused: 'json-parse' });
    expect(outcome('["a" + "b"]', list)).toEqual({ refused: 'string-concatenation' });
    // A colon goes only between a name and a value: a second name after it is no value.
    expect(outcome('{"a" "b": 1}', Type.Object({ a: Type.String(), b: Type.Number() }))).toEqual({ refused: 'syntax' });
    expect(outcome('{"a": "x" 2}', Type.Object({ a: Type.String() }))).toEqual({ refused: 'missing-colon' });
  });
});

describe('misreadings that misled the feedback', () => {
  it('a fenced answer whose string value holds ``` lines is the answer, not a truncated one', () => {
    const inline = 'Here:\n```json\n{"type": "code", "code": "```python\nprint(1)\n```"}\n```\nDone.';
    expect(check(inline, Code)).toMatchObject({ ok: true, value: { code: '```python\nprint(1)\n```' } });
    const alone = 'Here:\n```json\n{"type": "code", "code": "```\nprint(1)\n```\n"}\n```';
    expect(check(alone, Code)).toMatchObject({ ok: true, value: { code: '```\nprint(1)\n```\n' } });
  });

  it('an unescaped quote inside a string is named as such, not as truncation', () => {
    expect(check('{"height": "(5\'3")" }', Type.Object({ height: Type.String() }))).toMatchObject({ ok: false, failure: { defect: 'unescaped-quote' } });
    expect(check('{"text": "He said "stop" now"}', Type.Object({ text: Type.String() }))).toMatchObject({ ok: false, failure: { defect: 'unescaped-quote' } });
    // A reply really cut short is still truncated, braces in its last string included.
    expect(check('{"text": "use {x} and', Type.Object({ text: Type.String() }))).toMatchObject({ ok: false, failure: { defect: 'truncated' } });
    expect(check('{"text": "hello wor', Type.Object({ text: Type.String() }))).toMatchObject({ ok: false, failure: { defect: 'truncated' } });
  });

  it('LaTeX braces in prose are not JSON', () => {
    expect(check('The rate {$_{Ω}$rel} is {"a": 1}', Type.Object({ a: Type.Number() }))).toMatchObject({ ok: true, value: { a: 1 } });
    expect(check('Let {$_{Ω}$rel} be the relative rate', Type.String())).toMatchObject({ ok: true, value: 'Let {$_{Ω}$rel} be the relative rate' });
    expect(check('Let {$_{Ω}$rel', Type.String())).toMatchObject({ ok: true, repairs: ['bare-string'] });
  });

  it('a list inside a code block of another language is not the answer', () => {
    const reply = 'You can compute it with:\n```python\nitems = [1, 2, 3]\nprint(sum(items))\n```\nThe answer: [4, 5]';
    expect(check(reply, Type.Array(Type.Number()))).toMatchObject({ ok: true, value: [4, 5] });
    // A fence whose whole body is the value still gives it, whatever its tag.
    expect(check('```python\n[4, 5]\n```', Type.Array(Type.Number()))).toMatchObject({ ok: true, value: [4, 5], repairs: ['fence-stripped'] });
  });
});

describe('silent changes found by adversarial inputs are refused', () => {
  it('a flat list for a list of lists: one row of three or three rows of one', () => {
    const table = Type.Array(Type.Array(Type.String()));
    expect(outcome('["Alice", "Bob", "Carol"]', table)).toEqual({ refused: 'schema-validate' });
    // One value has one reading.
    expect(outcome('["Alice"]', table)).toEqual({ value: [['Alice']] });
    expect(outcome('"Alice"', table)).toEqual({ value: [['Alice']] });
  });

  it('a null the schema allows through $ref, {} or allOf is kept, never dropped', () => {
    const schema = {
      type: 'object',
      properties: { note: { $ref: '#/definitions/Note' }, any: {}, both: { allOf: [{ type: ['string', 'null'] }] }, n: { type: 'number' } },
      required: ['n'],
      definitions: { Note: { type: ['string', 'null'] } },
    };
    expect(outcome('{"note": null, "any": null, "both": null, "n": "5"}', schema)).toEqual({ value: { note: null, any: null, both: null, n: 5 } });
    // Where the schema refuses it, a null for an optional property is still removed.
    expect(check('{"name": "Ada", "age": null}', Person)).toMatchObject({ ok: true, value: { name: 'Ada' }, coercions: [{ path: ['age'], kind: 'null-to-absent' }] });
  });

  it('a fraction past 2^53, where a double holds neither the fraction nor every whole number', () => {
    expect(outcome('{"n": 9007199254740993.2}', Type.Object({ n: Type.Number() }))).toEqual({ refused: 'imprecise-number' });
    expect(outcome('{"n": 123456789012345678901.5}', Type.Object({ n: Type.Number() }))).toEqual({ refused: 'imprecise-number' });
    expect(outcome('{"n": "9007199254740993.2"}', Type.Object({ n: Type.Number() }))).toEqual({ refused: 'schema-validate' });
    expect(outcome('{"n": 9007199254740991.0}', Type.Object({ n: Type.Number() }))).toEqual({ value: { n: 9007199254740991 } });
    expect(outcome('{"n": 3.14159265358979323846}', Type.Object({ n: Type.Number() }))).toEqual({ value: { n: Math.PI } });
  });

  it('a comma right after [ : the first item is missing, every item would shift', () => {
    expect(outcome('[, 2, 3]', Type.Array(Type.Number()))).toEqual({ refused: 'missing-value' });
    expect(outcome('[,2,3]', Type.Array(Type.Number()))).toEqual({ refused: 'missing-value' });
    expect(outcome('{, "n": 1}', Type.Object({ n: Type.Number() }))).toEqual({ value: { n: 1 } });
  });

  it('two answers that differ only by case are two answers', () => {
    const level = Type.Object({ level: Type.Union([Type.Literal('low'), Type.Literal('high')]) });
    expect(outcome('Draft: {"level": "LOW"}\nFinal: {"level": "low"}', level)).toEqual({ refused: 'several-values' });
    // "MW" is no spelling of "mW": only the final answer matches, and it is the one taken.
    expect(check('First {"unit": "MW"} then {"unit": "mW"}', Unit)).toMatchObject({ ok: true, value: { unit: 'mW' }, coercions: [] });
    expect(outcome('First {"unit": "mW"} then {"unit": "MW"}', Unit)).toEqual({ refused: 'schema-validate' });
  });

  it('case folding never maps onto or from a value whose own case carries meaning', () => {
    expect(outcome('{"unit": "MW"}', Unit)).toEqual({ refused: 'schema-validate' });
    expect(outcome('{"unit": "mw"}', Unit)).toEqual({ refused: 'schema-validate' });
    expect(outcome('{"unit": "KW"}', Unit)).toEqual({ refused: 'schema-validate' });
    expect(outcome('{"os": "IOS"}', { type: 'object', properties: { os: { enum: ['iOS', 'android'] } } })).toEqual({ refused: 'schema-validate' });
    expect(outcome('{"unit": "mW"}', { type: 'object', properties: { unit: { enum: ['MW', 'KW'] } } })).toEqual({ refused: 'schema-validate' });
    // Plain case folds: lower, upper, capitalised words.
    expect(outcome('{"action": " REFUND "}', { type: 'object', properties: { action: { enum: ['Refund', 'Reject'] } } })).toEqual({ value: { action: 'Refund' } });
    expect(outcome('{"state": "in progress"}', { type: 'object', properties: { state: { enum: ['In Progress', 'Done'] } } })).toEqual({ value: { state: 'In Progress' } });
  });

  it('a string that may hold several items is never made a one-item list', () => {
    const tags = Type.Object({ tags: Type.Array(Type.String()) });
    for (const text of ['a\rb', 'a\u2028b', 'a\u2029b', 'a\tb', '北京，上海', '北京、上海', 'a；b', 'a • b', 'a\nb', 'a, b']) {
      expect(outcome(JSON.stringify({ tags: text }), tags), JSON.stringify(text)).toEqual({ refused: 'schema-validate' });
    }
    expect(outcome('{"tags": "gift"}', tags)).toEqual({ value: { tags: ['gift'] } });
  });
});

describe('several invalid values that tie', () => {
  it('the feedback describes the last, the final answer, not the first draft', () => {
    const refund = Type.Object({ action: Type.Union([Type.Literal('refund'), Type.Literal('reject')]), amount: Type.Number() });
    const result = check('Draft: {"action": "refund", "amount": "lots"}\nFinal: {"action": "refund", "amount": "many"}', refund);
    expect(result).toMatchObject({ ok: false, value: { amount: 'many' }, failure: { issues: [{ path: ['amount'], received: 'many' }] } });
    // Fewer issues still wins, wherever it stands.
    const fewer = check('Draft: {"action": "refund", "amount": "lots"}\nFinal: {"action": "maybe", "amount": "many"}', refund);
    expect(fewer).toMatchObject({ ok: false, value: { amount: 'lots' } });
  });
});
