/** Nothing usable was read where a value belongs (the text ended, or broke, before one was complete). */
const NOTHING: unique symbol = Symbol('nothing');
type Read = unknown;

/** Largest text read for partial values; past it, partials stop (the final value still arrives). */
export const MAX_PARTIAL_TEXT = 1_000_000;

/** Deepest nesting read; deeper values are left out of partials. */
const MAX_DEPTH = 256;

/**
 * Reads the JSON value a text holds so far, leniently: the value starts at the first `{` or `[`
 * (prose or a code fence before it is skipped), and whatever the text has not finished is left
 * out or kept as far as it is certain: an unfinished string is kept as written so far (an
 * unfinished escape left out), an unfinished number or literal (`12` may become `125`, `tr`
 * `true`) is left out, a key without its value is left out. The text ending early or breaking
 * (invalid JSON) ends the read there. `undefined` when no object or array has started. Pure; never
 * throws. Not a validator: the value may break the schema (the final answer is validated).
 */
export function parsePartialJson(text: string): unknown {
  const start = firstBracket(text);
  if (start < 0 || text.length > MAX_PARTIAL_TEXT) return undefined;
  const reader = new PartialReader(text, start);
  const value = reader.value(0);
  return value === NOTHING ? undefined : value;
}

function firstBracket(text: string): number {
  const brace = text.indexOf('{');
  const bracket = text.indexOf('[');
  if (brace < 0) return bracket;
  if (bracket < 0) return brace;
  return Math.min(brace, bracket);
}

const ESCAPES: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

class PartialReader {
  /** Set when the text ended or broke: every open value closes as it is. */
  private stopped = false;

  constructor(
    private readonly text: string,
    private at: number,
  ) {}

  private skipSpace(): void {
    const { text } = this;
    while (this.at < text.length) {
      const code = text.charCodeAt(this.at);
      if (code !== 0x20 && code !== 0x0a && code !== 0x0d && code !== 0x09) break;
      this.at++;
    }
  }

  private get ended(): boolean {
    return this.at >= this.text.length;
  }

  value(depth: number): Read {
    this.skipSpace();
    if (this.ended) return this.stop();
    const char = this.text[this.at];
    if (char === '{') return depth >= MAX_DEPTH ? this.stop() : this.object(depth);
    if (char === '[') return depth >= MAX_DEPTH ? this.stop() : this.array(depth);
    if (char === '"') return this.string();
    if (char === 't') return this.literal('true', true);
    if (char === 'f') return this.literal('false', false);
    if (char === 'n') return this.literal('null', null);
    return this.number();
  }

  private stop(): typeof NOTHING {
    this.stopped = true;
    return NOTHING;
  }

  private object(depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    this.at++;
    for (;;) {
      this.skipSpace();
      if (this.ended) return this.stopWith(out);
      if (this.text[this.at] === '}') {
        this.at++;
        return out;
      }
      if (this.text[this.at] !== '"') return this.stopWith(out);
      const key = this.string();
      if (this.stopped || key === NOTHING) return out;
      this.skipSpace();
      if (this.ended || this.text[this.at] !== ':') return this.stopWith(out);
      this.at++;
      const value = this.value(depth + 1);
      if (value !== NOTHING) {
        // A key is data: define it, so `__proto__` is a property like any other.
        Object.defineProperty(out, key as string, { value, enumerable: true, writable: true, configurable: true });
      }
      if (this.stopped) return out;
      this.skipSpace();
      if (this.ended) return this.stopWith(out);
      const next = this.text[this.at];
      if (next === ',') this.at++;
      else if (next !== '}') return this.stopWith(out);
    }
  }

  private array(depth: number): unknown[] {
    const out: unknown[] = [];
    this.at++;
    for (;;) {
      this.skipSpace();
      if (this.ended) return this.stopWith(out);
      if (this.text[this.at] === ']') {
        this.at++;
        return out;
      }
      const value = this.value(depth + 1);
      if (value !== NOTHING) out.push(value);
      if (this.stopped) return out;
      this.skipSpace();
      if (this.ended) return this.stopWith(out);
      const next = this.text[this.at];
      if (next === ',') this.at++;
      else if (next !== ']') return this.stopWith(out);
    }
  }

  private stopWith<T>(value: T): T {
    this.stopped = true;
    return value;
  }

  /** A string; one the text has not closed is kept as written so far (then the read stops). */
  private string(): string | typeof NOTHING {
    const { text } = this;
    let out = '';
    let from = ++this.at;
    while (this.at < text.length) {
      const char = text[this.at];
      if (char === '"') {
        out += text.slice(from, this.at);
        this.at++;
        return out;
      }
      if (char === '\\') {
        out += text.slice(from, this.at);
        const escape = text[this.at + 1];
        if (escape === undefined) return this.stopWith(out);
        if (escape === 'u') {
          const hex = text.slice(this.at + 2, this.at + 6);
          if (hex.length < 4) return this.stopWith(out);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) return this.stopWith(out);
          out += String.fromCharCode(Number.parseInt(hex, 16));
          this.at += 6;
        } else {
          const decoded = ESCAPES[escape];
          if (decoded === undefined) return this.stopWith(out);
          out += decoded;
          this.at += 2;
        }
        from = this.at;
        continue;
      }
      this.at++;
    }
    out += text.slice(from);
    // A lone high surrogate at the end is half a character still to come.
    if (/[\uD800-\uDBFF]$/.test(out)) out = out.slice(0, -1);
    return this.stopWith(out);
  }

  private literal(word: string, value: true | false | null): Read {
    const { text } = this;
    const written = text.slice(this.at, this.at + word.length);
    if (written === word) {
      this.at += word.length;
      return value;
    }
    return this.stop();
  }

  /** A number, only once something follows it: at the end of the text it may still grow. */
  private number(): Read {
    NUMBER.lastIndex = this.at;
    const match = NUMBER.exec(this.text);
    if (match === null) return this.stop();
    const end = this.at + match[0].length;
    if (end >= this.text.length) return this.stop();
    const next = this.text[end] as string;
    if (/[\d.eE+-]/.test(next)) return this.stop();
    this.at = end;
    return Number(match[0]);
  }
}
