import { numberLoss } from './exact-number';
import { elides, isOddWhitespace, shown, type TextEdit } from './json-text';
import type { JsonDefect, JsonRepair } from './repair-names';
import { CLOSERS, readQuoted, type ScanFailure as Failure, type StringCursor } from './scan-strings';

/** What a scan finds: the repairs and edits that make the text strict JSON, or its first defect. */
export type LenientScan =
  | {
      readonly ok: true;
      /** The lossless repairs the text needs (empty for strict JSON). */
      readonly repairs: ReadonlySet<JsonRepair>;
      /** Comma fixes, in text order. */
      readonly edits: readonly TextEdit[];
      /**
       * The value's content, token by token, normalised (a tag — `s`, `k`, `n` — then the decoded
       * text, or a bracket or literal alone): two texts with equal signatures mean the same value.
       */
      readonly signature: readonly string[];
      readonly maxDepth: number;
      /**
       * The value holds bare text where a value belongs (`{status: pending}`): each stands in the
       * value as {@link BARE_MARK} then its text, for a schema to resolve (see `coerceToSchema`); without
       * one, this is why the value cannot be used.
       */
      readonly bare?: { readonly message: string; readonly position: number };
    }
  | { readonly ok: false; readonly defect: JsonDefect; readonly message: string; readonly position: number };

/**
 * Prefix of a string that stands for bare text in the value (`pending` in `{status: pending}`): a
 * private-use character, and bare text is only marked in a text that holds none, so a marked string
 * is never one the model wrote.
 */
export const BARE_MARK = '\uE000';

const VALUE = 0;
const ARRAY_START = 1;
const OBJECT_START = 2;
const KEY = 3;
const COLON = 4;
const AFTER_VALUE = 5;
const DONE = 6;

const numberPattern = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const bareFractionPattern = /-?\.\d+(?:[eE][+-]?\d+)?/y;
const wordPattern = /[A-Za-z_$][\w$]*/y;
/** A bare property name: letters of any script, digits, `_` and `$` (`{città: 1}`). */
const keyPattern = /[\p{L}_$][\p{L}\p{N}_$]*/uy;
/** An unquoted numeric property name (`{5: "b"}`, `{2.17: "e"}`): read only where JavaScript and Python keep it as written. */
const numericKeyPattern = /(?:0|[1-9]\d{0,14})(?:\.\d{1,15})?(?![\w$.])/y;
/**
 * Bare text standing where a value belongs, up to the next delimiter on its line: it opens with a
 * letter, `_`, or any other character outside ASCII but the ellipsis (`¡Hola!`, `☕ Café`).
 */
const barePattern = /(?:[\p{L}_]|[^\p{ASCII}\s\u2026])[^,\]}\n\r]*/uy;
/** Bare words that mean something else in JavaScript or Python, never read as text. */
const codeWords: ReadonlySet<string> = new Set(['undefined', 'NaN', 'Infinity', 'nil', 'NULL', 'Null', 'TRUE', 'FALSE']);
const pythonLiterals: Readonly<Record<string, string>> = { True: 'true', False: 'false', None: 'null' };

function startsValue(char: string): boolean {
  return /[{["'`\u201c\u201d\u2018\u2019\-0-9\p{L}_$]/u.test(char);
}

/** The scanner's state; methods rather than closures, so a scan allocates almost nothing. */
export class Scanner implements StringCursor {
  readonly repairs = new Set<JsonRepair>();
  readonly edits: TextEdit[] = [];
  readonly signature: string[] = [];
  readonly stack: string[] = [];
  /** The property names of each open object (its one name, then a set once it has two; `undefined` for an array or an empty object), to refuse a name given twice. */
  readonly names: (string | Set<string> | undefined)[] = [];
  state = VALUE;
  maxDepth = 0;
  lastValueEnd = 0;
  lastComma = -1;
  afterComma = false;
  /** What the last value read was: the rule for a missing comma depends on it. */
  lastKind: 'string' | 'number' | 'literal' | 'container' = 'container';
  /** Where the last property name ended (a missing colon goes there). */
  keyEnd = 0;
  bare: { message: string; position: number } | undefined;
  /** Bare text may be marked (the text holds no {@link BARE_MARK} of its own, raw or escaped). */
  readonly markable: boolean;
  index = 0;
  readonly length: number;

  constructor(readonly text: string) {
    this.length = text.length;
    // Nor written as an escape ("\\uE000" in a string would decode to the mark).
    this.markable = !text.includes(BARE_MARK) && !/\\u[eE]000/.test(text);
  }

  fail(defect: JsonDefect, message: string, position = this.index): Failure {
    return { ok: false, defect, message, position };
  }

  run(): LenientScan {
    const { text } = this;
    while (true) {
      const spaceFailure = this.skipSpace();
      if (spaceFailure) return spaceFailure;
      if (this.index >= this.length) break;
      const char = text[this.index] as string;
      const failure = this.step(char);
      if (failure) return failure;
    }
    if (this.state !== DONE) {
      const missing = this.stack
        .slice()
        .reverse()
        .map((open) => (open === '{' ? '}' : ']'))
        .join('');
      return this.fail('truncated', missing === '' ? 'the text ends before a value' : `the text ends before the value is complete: '${missing}' never closes it`, this.length);
    }
    return { ok: true, repairs: this.repairs, edits: this.edits, signature: this.signature, maxDepth: this.maxDepth, ...(this.bare ? { bare: this.bare } : {}) };
  }

  step(char: string): Failure | undefined {
    let failure: Failure | undefined;
    switch (this.state) {
      case VALUE:
        if (char === ']' && this.afterComma && this.stack[this.stack.length - 1] === '[') {
          this.removeComma('trailing-comma', this.lastComma);
          failure = this.closeContainer(char);
        } else if (char === ',' || char === '}' || char === ']') {
          failure = this.fail('missing-value', `a value is missing before ${shown(char)}`);
        } else failure = this.readValue();
        break;
      case ARRAY_START:
      case OBJECT_START:
        if (char === ',' && this.state === ARRAY_START) {
          // "[, 2, 3]": the first item is missing, and dropping the comma would shift every item.
          failure = this.fail('missing-value', "a value is missing before ',' (the array's first item)");
        } else if (char === ',') {
          // One comma right after '{': properties are named, so nothing shifts; another comma or the closer after it is a missing value.
          this.removeComma('leading-comma', this.index);
          this.index++;
          this.state = this.state === ARRAY_START ? VALUE : KEY;
        } else if (char === ']' || char === '}') failure = this.closeContainer(char);
        else failure = this.state === ARRAY_START ? this.readValue() : this.readKey();
        break;
      case KEY:
        if (char === '}' && this.afterComma) {
          this.removeComma('trailing-comma', this.lastComma);
          failure = this.closeContainer(char);
        } else if (char === ',' || char === '}' || char === ']') failure = this.fail('missing-value', `a property is missing before ${shown(char)}`);
        else failure = this.readKey();
        break;
      case COLON:
        if (char === ':') {
          this.index++;
          this.state = VALUE;
        } else if (startsValue(char) && !/[\n\r]/.test(this.text.slice(this.keyEnd, this.index))) {
          // '{"a" 2}': a name then a value on its line, nothing between them: the colon is the only reading.
          this.repairs.add('missing-colon');
          this.edits.push({ at: this.keyEnd, remove: 0, insert: ':' });
          this.state = VALUE;
          failure = this.readValue();
        } else failure = this.fail('missing-colon', `a ':' is missing after a property name, before ${shown(char)}`);
        break;
      case AFTER_VALUE:
        if (char === ',') {
          this.lastComma = this.index;
          this.afterComma = true;
          this.index++;
          this.state = this.stack[this.stack.length - 1] === '{' ? KEY : VALUE;
          return undefined;
        }
        failure = this.afterValue(char);
        break;
      default:
        return this.fail('syntax', `unexpected ${shown(char)} after the end of the value`);
    }
    this.afterComma = false;
    return failure;
  }

  afterValue(char: string): Failure | undefined {
    const { text } = this;
    if (char === '}' || char === ']') return this.closeContainer(char);
    if (char === '+') return this.fail('string-concatenation', "values are joined with '+' (write one string instead)");
    if (char === '.' && text.startsWith('...', this.index)) return this.fail('ellipsis', "'...' stands where content was left out");
    // '"He said "hi" ..."': a quote inside a string that is not escaped ends it early.
    if (this.lastKind === 'string' && this.index === this.lastValueEnd && /[\p{L}\p{N}_$]/u.test(char)) {
      return this.fail('unescaped-quote', `a '"' inside a string is not escaped, before ${shown(char)} (write it as \\")`);
    }
    if (!startsValue(char)) return this.fail('syntax', `unexpected ${shown(char)} after a value`);
    const sameLine = !/[\n\r]/.test(text.slice(this.lastValueEnd, this.index));
    // A bare word on the same line as a value ("12 EUR") is part of it, not a new item.
    if (/[\p{L}_$]/u.test(char) && sameLine) {
      const word = /^[^,\]}\n]*/.exec(text.slice(this.lastValueEnd, this.lastValueEnd + 60))?.[0].trim() ?? char;
      return this.fail('unquoted-value', `the bare word ${shown(word)} follows a value on the same line (a string must be quoted)`);
    }
    // Two scalars side by side on one line in an array ("[1 500]", "['a' 'b']"), or two strings on
    // any lines ("first part "\n"second part", as Python joins them), may be one value (a thousands
    // separator, implicit string concatenation) or two: only containers are told apart, and a
    // string then a number ('["a" 2]'), which no reading joins.
    const inArray = this.stack[this.stack.length - 1] === '[';
    const scalars = char !== '{' && char !== '[' && this.lastKind !== 'container';
    const strings = this.lastKind === 'string' && (char in CLOSERS || char === '`');
    const stringThenNumber = this.lastKind === 'string' && /[-\d]/.test(char);
    if (inArray && scalars && !stringThenNumber && (strings || sameLine)) {
      return this.fail('syntax', `two values stand side by side with no comma between them, before ${shown(char)} (they may be one value or two${strings ? ': one string split in two, or two items' : ''})`);
    }
    this.repairs.add('missing-comma');
    this.edits.push({ at: this.lastValueEnd, remove: 0, insert: ',' });
    return this.stack[this.stack.length - 1] === '{' ? this.readKey() : this.readValue();
  }


  /** Skips whitespace and comments, recording the repairs they need. */
  skipSpace(): Failure | undefined {
    const { text, length } = this;
    while (this.index < length) {
      const code = text.charCodeAt(this.index);
      if (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09) this.index++;
      else if (isOddWhitespace(code)) {
        this.repairs.add('odd-whitespace');
        this.index++;
      } else if (code === 0x2f && text[this.index + 1] === '/') {
        this.repairs.add('comments');
        const end = text.indexOf('\n', this.index);
        if (elides(text.slice(this.index, end < 0 ? length : end))) return this.fail('ellipsis', "a comment with '...' stands where content was left out");
        this.index = end < 0 ? length : end + 1;
      } else if (code === 0x2f && text[this.index + 1] === '*') {
        this.repairs.add('comments');
        const end = text.indexOf('*/', this.index + 2);
        if (end < 0) return this.fail('truncated', 'the text ends inside a comment');
        if (elides(text.slice(this.index, end))) return this.fail('ellipsis', "a comment with '...' stands where content was left out");
        this.index = end + 2;
      } else break;
    }
    return undefined;
  }

  closeContainer(char: string): Failure | undefined {
    const open = this.stack[this.stack.length - 1];
    if ((char === '}' && open !== '{') || (char === ']' && open !== '[')) {
      return this.fail('syntax', `unexpected ${shown(char)}${open ? ` where '${open === '{' ? '}' : ']'}' was expected` : ''}`);
    }
    this.stack.pop();
    this.names.pop();
    this.index++;
    this.lastKind = 'container';
    this.lastValueEnd = this.index;
    this.state = this.stack.length === 0 ? DONE : AFTER_VALUE;
    this.signature.push(char);
    return undefined;
  }

  removeComma(kind: 'trailing-comma' | 'leading-comma', at: number): void {
    this.repairs.add(kind);
    this.edits.push({ at, remove: 1, insert: '' });
  }

  /** Reads a value at `index` (state VALUE). */
  readValue(): Failure | undefined {
    const { text, length } = this;
    const char = text[this.index] as string;
    if (char === '{' || char === '[') {
      this.stack.push(char);
      this.names.push(undefined);
      if (this.stack.length > this.maxDepth) this.maxDepth = this.stack.length;
      this.signature.push(char);
      this.index++;
      this.state = char === '{' ? OBJECT_START : ARRAY_START;
      return undefined;
    }
    if (char in CLOSERS || char === '`') {
      const value = readQuoted(this, true);
      if (typeof value !== 'string') return value;
      this.signature.push('s', value);
      this.lastKind = 'string';
    } else if (char === '.' && text.startsWith('...', this.index)) {
      return this.fail('ellipsis', "'...' stands where content was left out");
    } else if (char === '-' || char === '.' || (char >= '0' && char <= '9')) {
      // ".5", "-.5": a fraction without its leading zero, read alike by JavaScript and Python.
      const bareFraction = /^-?\.\d/.test(text.slice(this.index, this.index + 3));
      if (bareFraction) {
        this.repairs.add('bare-decimal-point');
        this.edits.push({ at: char === '-' ? this.index + 1 : this.index, remove: 0, insert: '0' });
      }
      const match = bareFraction ? bareFractionPattern : numberPattern;
      match.lastIndex = this.index;
      const found = match.exec(text);
      if (!found) return this.fail('syntax', `${shown(text.slice(this.index, this.index + 2))} is not a number`);
      const literal = bareFraction ? found[0].replace('.', '0.') : found[0];
      let end = this.index + found[0].length;
      // "[2.]": a whole number with a bare decimal point, closed by a delimiter (never at the end of the text, where it may be cut short).
      if (text[end] === '.' && /^[\s,\]}]/.test(text.slice(end + 1, end + 2)) && !/[.eE]/.test(found[0])) {
        this.repairs.add('bare-decimal-point');
        this.edits.push({ at: end, remove: 1, insert: '' });
        end++;
      }
      if (end < length && !/[\s,\]}/:]/.test(text[end] as string) && !isOddWhitespace(text.charCodeAt(end))) {
        const word = /^[^\s,\]}]*/.exec(text.slice(this.index, this.index + 40))?.[0] ?? literal;
        return this.fail('unquoted-value', `the bare text ${shown(word)} stands where a value belongs (a string must be quoted)`);
      }
      const loss = numberLoss(literal);
      if (loss !== undefined) return this.fail('imprecise-number', `the number ${literal} ${loss}`);
      this.signature.push('n', literal);
      this.index = end;
      this.lastKind = 'number';
    } else {
      wordPattern.lastIndex = this.index;
      const match = wordPattern.exec(text);
      const word = match?.[0];
      if (word === 'true' || word === 'false' || word === 'null') this.signature.push(word);
      else if (word !== undefined && Object.hasOwn(pythonLiterals, word) && !/^[^\S\n]*[^\s,\]}/]/.test(text.slice(this.index + word.length, this.index + word.length + 2))) {
        this.repairs.add('python-literals');
        this.signature.push(pythonLiterals[word] as string);
      } else return this.readBare();
      this.index += word.length;
      this.lastKind = 'literal';
    }
    this.lastValueEnd = this.index;
    this.state = this.stack.length === 0 ? DONE : AFTER_VALUE;
    return undefined;
  }

  /**
   * Reads bare text where a value belongs (`pending` in `{status: pending}`, `São Paulo`): it is
   * marked for a schema to resolve (an allowed value it equals), and is why the value cannot be used
   * without one. Code words (`undefined`, `NaN`) and text holding quotes, ':' or brackets are refused at once.
   */
  readBare(): Failure | undefined {
    const { text } = this;
    barePattern.lastIndex = this.index;
    const match = barePattern.exec(text);
    const raw = match?.[0] ?? '';
    const cut = /\s\/[/*]/.exec(raw);
    const bare = (cut ? raw.slice(0, cut.index) : raw).trimEnd();
    const word = /^[^\s,\]}]*/.exec(text.slice(this.index, this.index + 40))?.[0] || (text[this.index] as string);
    const failure = this.fail('unquoted-value', `the bare ${bare.includes(' ') ? 'text' : 'word'} ${shown(bare || word)} stands where a value belongs (a string must be quoted)`);
    if (!this.markable || bare === '' || codeWords.has(bare) || /["'`\u201c\u201d\u2018\u2019:{}[\]\\]/.test(bare)) {
      return bare === '' ? this.fail('syntax', `unexpected ${shown(text[this.index])} where a value was expected`) : failure;
    }
    this.bare ??= { message: failure.message, position: failure.position };
    const marked = `${BARE_MARK}${bare}`;
    this.edits.push({ at: this.index, remove: bare.length, insert: JSON.stringify(marked) });
    this.signature.push('s', marked);
    this.index += bare.length;
    this.lastKind = 'string';
    this.lastValueEnd = this.index;
    this.state = this.stack.length === 0 ? DONE : AFTER_VALUE;
    return undefined;
  }

  /** Reads a property name at `index` (states OBJECT_START and KEY). */
  readKey(): Failure | undefined {
    const { text } = this;
    const start = this.index;
    const char = text[this.index] as string;
    let key: string;
    if (char in CLOSERS || char === '`') {
      const read = readQuoted(this, false);
      if (typeof read !== 'string') return read;
      key = read;
    } else if (char >= '0' && char <= '9') {
      numericKeyPattern.lastIndex = this.index;
      const match = numericKeyPattern.exec(text);
      // "1.50" is "1.5" to JavaScript and Python alike: a name only where every reading keeps the digits.
      if (!match || String(Number(match[0])) !== match[0]) {
        return this.fail('syntax', `unexpected ${shown(char)} where a property name was expected (only numbers JavaScript and Python keep as written are read as names)`);
      }
      this.repairs.add('unquoted-keys');
      key = match[0];
      this.edits.push({ at: this.index, remove: key.length, insert: JSON.stringify(key) });
      this.index += key.length;
    } else if (char === '.' && text.startsWith('...', this.index)) {
      return this.fail('ellipsis', "'...' stands where properties were left out");
    } else {
      keyPattern.lastIndex = this.index;
      const match = keyPattern.exec(text);
      if (!match) return this.fail('syntax', `unexpected ${shown(char)} where a property name was expected`);
      key = match[0];
      // `{None: 1}` is {"null": 1} to Python and {"None": 1} to JavaScript: two readings.
      if (Object.hasOwn(pythonLiterals, key)) return this.fail('syntax', `the bare name ${shown(key)} is a Python literal or the text ${key} (quote the name)`);
      this.repairs.add('unquoted-keys');
      this.index += key.length;
    }
    // JSON.parse keeps the last of two equal names: which one the model meant is a guess.
    const depth = this.names.length - 1;
    const names = this.names[depth];
    if (names === key || (typeof names === 'object' && names.has(key))) return this.fail('duplicate-key', `the property ${shown(key)} is given twice (give each property once)`, start);
    if (names === undefined) this.names[depth] = key;
    else if (typeof names === 'string') this.names[depth] = new Set([names, key]);
    else names.add(key);
    this.signature.push('k', key);
    this.keyEnd = this.index;
    this.state = COLON;
    return undefined;
  }
}
