import { regionsAround } from './fence-regions';
import { findFences } from './find-fences';
import { findJsonSpans, opensJson } from './find-json-spans';
import type { JsonDefect, JsonRepair } from './repair-names';
import { type ParseFailure, parseExact, tryParse } from './parse-exact';
import { repairJson, type RepairJsonResult } from './repair-json';
import { decodeEscapes } from './json-text';
import { scanLenientJson } from './scan-lenient-json';
import { strayCloserReading } from './stray-closer';

/** One JSON value found in a reply, with the lossless repairs it took. */
export interface JsonCandidate {
  readonly value: unknown;
  readonly repairs: readonly JsonRepair[];
  /** The strict JSON text the value was parsed from (number literals are read from it as written). */
  readonly json?: string;
  /**
   * Bare text stands in the value where a value belongs, marked (see `BARE_MARK`): usable only when
   * a schema allows exactly one value it names; otherwise this says why it cannot be used.
   */
  readonly unquoted?: { readonly message: string };
}

/** A bracketed value that looks like JSON but cannot be used (a lossy defect), and where it stands. */
export interface RejectedValue {
  /** How many candidates come before it in the text. */
  readonly after: number;
  /** It opens with `[` rather than `{`. */
  readonly array: boolean;
  readonly message: string;
  readonly defect: JsonDefect;
}

/** Every JSON value a reply holds, and why the rest could not be used. */
export interface JsonCandidates {
  /** Values that parsed (after lossless repairs), in text order. */
  readonly candidates: readonly JsonCandidate[];
  /**
   * Values that look like JSON but cannot be used, in text order: one after a usable value of the
   * same shape may be the final answer, so that value must not be taken in its place.
   */
  readonly rejected?: readonly RejectedValue[];
  /** When no value is usable: what went wrong, the defect named when there is one. */
  readonly failure?: { readonly message: string; readonly defect?: JsonDefect };
  /** A value that never closes: the reply is cut short, whatever else it holds. */
  readonly truncated?: { readonly message: string };
}

/** Outcome of {@link extractJson}. */
type ExtractJsonResult =
  | { readonly ok: true; readonly value: unknown; readonly repairs: readonly JsonRepair[] }
  | { readonly ok: false; readonly message: string; readonly defect?: JsonDefect };

/** Settings of {@link extractJson} and {@link extractJsonCandidates}. */
interface ExtractJsonOptions {
  /** Apply local extraction and lossless repair. `false`: the text must be JSON as it is. Default true. */
  readonly repair?: boolean;
}

/** Most bracketed values a reply may hold: past it, no one of them is taken (a cost bound, far above any real reply). */
const MAX_SPANS = 1_000;

/**
 * Finds every JSON value in model text at no model cost: values in markdown fences and in the prose
 * around them, each repaired losslessly or not at all (see {@link repairJson}); those that cannot
 * be used are listed in `rejected`. Strict JSON that `JSON.parse` would change (a name given twice,
 * a number a double cannot hold) is refused, as is a value whose stray closer after it may be its
 * own end (see `strayCloserReading`). A value that never closes (in a fence or after the
 * last one) makes the whole reply truncated. A reply with more than 1,000 top-level bracketed
 * values is a `several-values` failure. Linear in the text's length.
 */
export function extractJsonCandidates(text: string, options: ExtractJsonOptions = {}): JsonCandidates {
  const direct = parseExact(text);
  if (direct.ok) return { candidates: [{ value: direct.value, repairs: [], json: text }] };
  return candidatesBeyond(text, direct, options);
}

/**
 * The candidates of a text that is not JSON as it stands: `direct` is what {@link parseExact}
 * said of it (see {@link extractJsonCandidates}).
 */
export function candidatesBeyond(text: string, direct: ParseFailure, options: ExtractJsonOptions = {}): JsonCandidates {
  if (options.repair === false || direct.defect !== undefined) return { candidates: [], failure: direct };
  const found = searchCandidates(text, direct.message);
  if (found.candidates.length > 0 || found.truncated) return found;
  // '{\"a\": 1}': JSON written as the inside of a string, every quote escaped. Unescaped once, it is
  // read like any reply (once: what it holds is not unescaped again).
  if (text.includes('\\"') && !/(?:^|[^\\])(?:\\\\)*"/.test(text)) {
    const decoded = decodeEscapes(text);
    if (decoded !== undefined) {
      const inner = parseExact(decoded);
      const unescaped = inner.ok ? { candidates: [{ value: inner.value, repairs: [], json: decoded }] } : searchCandidates(decoded, inner.message);
      if (unescaped.candidates.length > 0) {
        return { ...unescaped, candidates: unescaped.candidates.map((candidate) => ({ ...candidate, repairs: ['escaped-json', ...candidate.repairs] })) };
      }
    }
  }
  return found;
}

/** JSON-ish fence tags: every value in such a fence is a candidate, as in prose. */
const jsonTags: ReadonlySet<string> = new Set(['', 'json', 'json5', 'jsonc', 'jsonl']);

/** Finds the candidates of a text that is not JSON as it is (see {@link extractJsonCandidates}). */
function searchCandidates(text: string, directMessage: string): JsonCandidates {
  // Checking fence bodies costs at most four passes over the text in all; past that, fences close at their first closing line.
  let budget = 4 * text.length;
  const fences = findFences(text, (start, end) => {
    budget -= end - start;
    return budget < 0 || !findJsonSpans(text.slice(start, end), MAX_SPANS).truncated;
  });
  const regions = fences.length > 0 ? regionsAround(text, fences, MAX_SPANS) : [{ start: 0, end: text.length, fence: false, tag: '' }];
  const candidates: JsonCandidate[] = [];
  const rejected: RejectedValue[] = [];
  let lastFailure: { message: string; defect: JsonDefect } | undefined;
  for (const region of regions) {
    const base: readonly JsonRepair[] = region.fence ? ['fence-stripped'] : fences.length > 0 ? ['prose-removed'] : [];
    const body = text.slice(region.start, region.end);
    const search = findJsonSpans(body, MAX_SPANS);
    if (search.overflow) {
      return { candidates: [], failure: { message: `The reply holds more than ${MAX_SPANS} bracketed values; reply with exactly one JSON value`, defect: 'several-values' } };
    }
    if (region.fence && search.spans.length === 0 && !search.truncated && /^\s*["\d\-tfn]/.test(body)) {
      const scalar = parseExact(body);
      if (scalar.ok) candidates.push({ value: scalar.value, repairs: base, json: body });
      else if (scalar.defect !== undefined) return { candidates: [], failure: scalar };
      continue;
    }
    // An unclosed bracket in prose before a fence is not a cut-off answer: the reply goes on.
    if (search.truncated && (region.fence || region === regions[regions.length - 1])) {
      const { openString, missing, start } = search.truncated;
      // '{"height": "5'3"" }': the closers are all there, after a quote that opened a string by mistake.
      if (openString !== undefined && unmatchedClosers(body.slice(openString + 1)) === missing) {
        const message = `The JSON value at position ${region.start + start} cannot be used: the string opened at position ${region.start + openString} never closes before the value ends (a '"' inside a string is not escaped as \\", or a string's closing quote is missing)`;
        return { candidates: [], failure: { message, defect: 'unescaped-quote' } };
      }
      const message = `The reply ends before its JSON value is complete (truncated): '${missing}' never closes the value opened at position ${region.start + start}`;
      return { candidates: [], truncated: { message }, failure: { message, defect: 'truncated' } };
    }
    const trimmedStart = body.length - body.trimStart().length;
    const trimmedEnd = body.trimEnd().length;
    // Code in a fence tagged with another language ("x = [1, 2]" in ```python) holds no answer;
    // a fence whose whole body is one value still gives it.
    const code = region.fence && !jsonTags.has(region.tag);
    for (const span of search.spans) {
      const prose: readonly JsonRepair[] = (span.start > trimmedStart || span.end < trimmedEnd) && !base.includes('prose-removed') ? ['prose-removed'] : [];
      if (code && prose.length > 0) continue;
      // A bracket in prose ("[Note: see below]") is not a candidate.
      if (!opensJson(body, span.start)) continue;
      const slice = body.slice(span.start, span.end);
      const scan = scanLenientJson(slice);
      const parsed = scan.ok && scan.repairs.size === 0 && scan.edits.length === 0 ? parseScanned(slice) : repairJson(slice, scan);
      // '{"a": {"b": 1}, "c": 2}}': the closer after the value may be noise or its own end.
      const stray = parsed.ok && parsed.json !== undefined ? strayCloserReading(parsed.json, body.slice(span.end)) : undefined;
      const repaired: RepairJsonResult = stray === undefined ? parsed : { ok: false, defect: 'syntax', message: stray };
      if (repaired.ok) {
        candidates.push({
          value: repaired.value,
          repairs: [...base, ...prose, ...repaired.repairs],
          ...(repaired.json === undefined ? {} : { json: repaired.json }),
          ...(repaired.bare ? { unquoted: repaired.bare } : {}),
        });
        continue;
      }
      lastFailure = { message: `The JSON value at position ${region.start + span.start} cannot be used: ${repaired.message}`, defect: repaired.defect };
      // A brace pair with no ':' ("{name}" in prose) is not an object the model wrote.
      if (slice.startsWith('[') || slice.includes(':')) rejected.push({ after: candidates.length, array: slice.startsWith('['), ...lastFailure });
    }
  }
  if (candidates.length === 0 && rejected.length === 0 && fences.length === 0) {
    // The whole reply is one scalar written another way: 'True', "'refund'", a backtick string.
    const whole = text.trim();
    const scan = whole === '' ? undefined : scanLenientJson(whole);
    if (scan?.ok && scan.signature.length <= 2 && !scan.bare) {
      const repaired = repairJson(whole, scan);
      if (repaired.ok) return { candidates: [{ value: repaired.value, repairs: repaired.repairs, ...(repaired.json === undefined ? {} : { json: repaired.json }) }] };
    }
  }
  if (candidates.length > 0) return rejected.length > 0 ? { candidates, rejected } : { candidates };
  return { candidates, failure: lastFailure ?? { message: directMessage } };
}

/** The closers in `text` that no opener in it matches, innermost first (`" }"` → `}`). */
function unmatchedClosers(text: string): string {
  let depth = 0;
  let out = '';
  for (const char of text) {
    if (char === '{' || char === '[') depth++;
    else if (char === '}' || char === ']') {
      if (depth > 0) depth--;
      else out += char;
    }
  }
  return out;
}

/**
 * Extracts one JSON value from model text at no model cost (see {@link extractJsonCandidates}).
 * When the reply holds several values, the last one is taken and `last-candidate` recorded; with
 * a schema, prefer `checkOutput`, which picks the one value that matches it.
 */
export function extractJson(text: string, options: ExtractJsonOptions = {}): ExtractJsonResult {
  const found = withoutUnquoted(extractJsonCandidates(text, options));
  const last = found.candidates[found.candidates.length - 1];
  // A value that cannot be used after the last usable one, of the same shape, may be the final answer.
  const later = last && isObject(last.value) ? found.rejected?.filter((entry) => entry.after === found.candidates.length && entry.array === Array.isArray(last.value)).pop() : undefined;
  if (!last || found.truncated || later) {
    const failure = later || found.failure || { message: 'no JSON value found' };
    return { ok: false, message: failure.message, ...(failure.defect === undefined ? {} : { defect: failure.defect }) };
  }
  if (found.candidates.length === 1) return { ok: true, value: last.value, repairs: last.repairs };
  return { ok: true, value: last.value, repairs: [...last.repairs, 'last-candidate'] };
}

/**
 * Candidates that hold bare text cannot be used without a schema: they are moved to `rejected` (or
 * become the failure), where they stand in the text.
 */
export function withoutUnquoted(found: JsonCandidates): JsonCandidates {
  if (!found.candidates.some((candidate) => candidate.unquoted)) return found;
  const candidates: JsonCandidate[] = [];
  const moved: RejectedValue[] = [];
  // `after` of the existing rejected values counts all candidates: recount it over the usable ones.
  const usableBefore: number[] = [];
  for (const candidate of found.candidates) {
    usableBefore.push(candidates.length);
    if (!candidate.unquoted) candidates.push(candidate);
    else moved.push({ after: candidates.length, array: Array.isArray(candidate.value), message: candidate.unquoted.message, defect: 'unquoted-value' });
  }
  usableBefore.push(candidates.length);
  const kept = (found.rejected ?? []).map((entry) => ({ ...entry, after: usableBefore[entry.after] ?? candidates.length }));
  const rejected = [...kept, ...moved].sort((left, right) => left.after - right.after);
  const failure = candidates.length === 0 ? { message: (moved[moved.length - 1] as RejectedValue).message, defect: 'unquoted-value' as const } : undefined;
  return { ...found, candidates, rejected, ...(failure ? { failure } : {}) };
}

/** Parses text the scanner found to be strict JSON. */
function parseScanned(text: string): RepairJsonResult {
  const parsed = tryParse(text);
  return parsed.ok ? { ok: true, value: parsed.value, repairs: [], json: text } : { ok: false, defect: 'syntax', message: parsed.message };
}

function isObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null;
}
