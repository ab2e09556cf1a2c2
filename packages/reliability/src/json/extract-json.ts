/** A local repair applied before parsing. */
export type JsonRepair = 'fence-stripped' | 'prose-removed' | 'trailing-comma' | 'single-quotes';

/** Outcome of {@link extractJson}. */
export type ExtractJsonResult =
  | { readonly ok: true; readonly value: unknown; readonly repairs: readonly JsonRepair[] }
  | { readonly ok: false; readonly message: string };

const fencePattern = /```[a-zA-Z0-9_-]*[ \t]*\r?\n([\s\S]*?)\r?\n?```/;

/**
 * Extracts one JSON value from model text at no model cost: strips a markdown fence and prose
 * around a single JSON object or array, and repairs trailing commas and single-quoted strings.
 * Records every repair it made. Anything else is a parse failure with the parser's message.
 */
export function extractJson(text: string, options: { readonly repair?: boolean } = {}): ExtractJsonResult {
  const repair = options.repair ?? true;
  const direct = tryParse(text);
  if (direct.ok) return { ok: true, value: direct.value, repairs: [] };
  if (!repair) return { ok: false, message: direct.message };

  const repairs: JsonRepair[] = [];
  let candidate = text.trim();
  const fence = fencePattern.exec(candidate);
  if (fence?.[1] !== undefined) {
    candidate = fence[1].trim();
    repairs.push('fence-stripped');
  }
  // Prose may hold brackets of its own ("see [1]"): of the balanced spans that parse, the longest wins.
  let best: { value: unknown; length: number; trimmed: boolean; repairs: readonly JsonRepair[] } | undefined;
  let from = 0;
  for (let tries = 0; tries < MAX_SPANS; tries++) {
    const span = findJsonSpan(candidate, from);
    if (!span) break;
    // A bracket that opens what looks like JSON is never searched inside: a truncated or broken
    // value must fail as a whole, not yield one of its inner objects. A bracket in prose
    // ("[Note: it's below]") is stepped over.
    const jsonLike = opensJson(candidate, span.start);
    if (span.end < 0) {
      if (jsonLike) break;
      from = span.start + 1;
      continue;
    }
    const fixed = repairSyntax(candidate.slice(span.start, span.end));
    const parsed = tryParse(fixed.text);
    if (parsed.ok && (!best || span.end - span.start > best.length)) {
      best = { value: parsed.value, length: span.end - span.start, trimmed: span.start > 0 || span.end < candidate.length, repairs: fixed.repairs };
    }
    from = parsed.ok || jsonLike ? span.end : span.start + 1;
  }
  if (!best) return { ok: false, message: direct.message };
  return { ok: true, value: best.value, repairs: [...repairs, ...(best.trimmed ? (['prose-removed'] as const) : []), ...best.repairs] };
}

/**
 * True when the bracket at `index` opens what looks like JSON: every `{` (prose rarely has braces;
 * an object with unquoted keys still counts), or a `[` followed by a JSON value's first token.
 */
function opensJson(text: string, index: number): boolean {
  if (text[index] === '{') return true;
  const next = /\S/.exec(text.slice(index + 1, index + 64));
  return next === null || /["'{}[\]\d-]/.test(next[0]) || /^(true|false|null)\b/.test(text.slice(index + 1).trimStart());
}

/** Most bracketed spans tried in one text. */
const MAX_SPANS = 16;

function tryParse(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Finds the first `{` or `[` at or after `from` and the end of its balanced value, respecting
 * quoted strings; `end` is -1 when it never balances.
 */
function findJsonSpan(text: string, from: number): { start: number; end: number } | undefined {
  const offset = text.slice(from).search(/[{[]/);
  if (offset < 0) return undefined;
  const start = from + offset;
  let depth = 0;
  let quote: string | undefined;
  for (let index = start; index < text.length; index++) {
    const char = text[index];
    if (quote) {
      if (char === '\\') index++;
      else if (char === quote) quote = undefined;
      continue;
    }
    if (char === '"' || char === "'") quote = char;
    else if (char === '{' || char === '[') depth++;
    else if (char === '}' || char === ']') {
      depth--;
      if (depth === 0) return { start, end: index + 1 };
    }
  }
  return { start, end: -1 };
}

/** Removes trailing commas and turns single-quoted strings into JSON strings, in one pass. */
function repairSyntax(text: string): { text: string; repairs: JsonRepair[] } {
  const repairs = new Set<JsonRepair>();
  let out = '';
  let quote: string | undefined;
  for (let index = 0; index < text.length; index++) {
    const char = text[index] as string;
    if (quote) {
      if (char === '\\') {
        const next = text[index + 1] ?? '';
        out += quote === "'" && next === "'" ? "'" : char + next;
        index++;
      } else if (char === quote) {
        out += '"';
        quote = undefined;
      } else {
        out += quote === "'" && char === '"' ? '\\"' : char;
      }
      continue;
    }
    if (char === '"' || char === "'") {
      if (char === "'") repairs.add('single-quotes');
      quote = char;
      out += '"';
    } else if (char === ',' && /^\s*[}\]]/.test(text.slice(index + 1))) {
      repairs.add('trailing-comma');
    } else {
      out += char;
    }
  }
  return { text: out, repairs: [...repairs] };
}
