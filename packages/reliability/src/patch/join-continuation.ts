import { extractJsonCandidates } from '../json/extract-json';
import { findJsonSpans } from '../json/find-json-spans';
import { numberLiterals, pathKey } from '../json/number-literals';
import { scanPrefix } from '../json/scan-lenient-json';
import { writeJson } from './write-json';

/** Shortest repeat weighed against the text as written, in characters: a shorter one is weighed only when the text as written does not read. */
const MIN_REPEAT_CHARS = 8;

/** Longest repeat looked for, in characters (the whole cut output is always looked for). */
const MAX_REPEAT_CHARS = 4096;

/** One way to join a cut output and its continuation. */
export interface JoinReading {
  readonly text: string;
  /** Characters of the continuation dropped as a repeat of the end of the cut output. */
  readonly repeated: number;
  /** The continuation started over: it repeats the whole cut output (spaces between tokens aside) and is taken alone. */
  readonly restarted?: true;
}

/**
 * The outcome of {@link joinContinuation}: the one reading, or a refusal. A refused join whose
 * `readings` are given (a finished continuation that reads as several different values) may still
 * be settled by the schema: the one reading that validates is the join; none or several, it stays refused.
 */
export type JoinedContinuation =
  | ({ readonly ok: true } & JoinReading)
  | { readonly ok: false; readonly message: string; readonly text: string; readonly readings?: readonly JoinReading[] };

/** The text with the spaces between its tokens removed (strings kept as written). */
function tokensOnly(text: string): string {
  let out = '';
  let quote: string | undefined;
  for (let index = 0; index < text.length; index++) {
    const char = text[index] as string;
    if (quote !== undefined) {
      out += char;
      if (char === '\\') out += text[++index] ?? '';
      else if (char === quote) quote = undefined;
    } else if (char === '"' || char === "'") {
      quote = char;
      out += char;
    } else if (!/\s/.test(char)) out += char;
  }
  return out;
}

/** Where the cut value opens in `partial` (after any prose or fence before it). */
function valueStartOf(partial: string): number {
  const open = findJsonSpans(partial).truncated?.start;
  return open ?? partial.length - partial.trimStart().length;
}

/** The join's context: the cut output, where its value opens, and whether the continuation finished. */
interface Seam {
  readonly partial: string;
  readonly valueStart: number;
  readonly finished: boolean;
}

/**
 * How a reading reads: `undefined` when it does not, else a key equal for readings of the same
 * value. Finished: it parses as exactly one complete value (lossless repairs only). Cut again: it
 * is the opening of a value (nothing but the end of the text is missing). Either way, never when
 * the reading needs a comma or colon inserted where the continuation begins: the two texts do not
 * continue each other there.
 */
function readingKey(reading: JoinReading, seam: Seam): string | undefined {
  const start = reading.restarted ? reading.text.length - reading.text.trimStart().length : seam.valueStart;
  const prefix = scanPrefix(reading.text.slice(start));
  if (!reading.restarted) {
    const from = seam.partial.trimEnd().length - start;
    const to = seam.partial.length - start + (reading.text.length - seam.partial.length - reading.text.slice(seam.partial.length).trimStart().length);
    if (prefix.inserted.some((at) => at >= from && at <= to)) return undefined;
  }
  if (!seam.finished) return prefix.reads === 'broken' ? undefined : reading.text;
  const found = extractJsonCandidates(reading.text, { repair: true });
  const candidate = found.candidates[0];
  if (found.truncated || found.candidates.length !== 1 || (found.rejected?.length ?? 0) > 0 || candidate === undefined) return undefined;
  // Told apart as written: 1.10 and 1.1 are two values where a string is due.
  const literals = candidate.json === undefined ? undefined : numberLiterals(candidate.json);
  return writeJson(candidate.value, (path) => literals?.get(pathKey(path)));
}

/** The readings that read, one per distinct value, in the order given. */
function distinct(readings: readonly JoinReading[], seam: Seam, except?: string): JoinReading[] {
  const seen = new Set<string>(except === undefined ? [] : [except]);
  const kept: JoinReading[] = [];
  for (const reading of readings) {
    const key = readingKey(reading, seam);
    if (key === undefined || seen.has(key)) continue;
    seen.add(key);
    kept.push(reading);
  }
  return kept;
}

/**
 * Joins a cut output and the model's continuation of it. The model's text is never changed and
 * never shortened on a guess:
 * - the readings are the text as written, the text without a repeat (the continuation's first `k`
 *   characters where they equal the last `k` of `partial`), and the continuation alone where it
 *   repeats the whole cut output, spaces between tokens aside (the model started over).
 * - a reading *reads* when it parses as exactly one value (`finished`), or is the opening of one
 *   (cut again: `finished` false); never when it needs a comma or colon where the continuation begins.
 * - the text as written is the join when it reads and no repeat of {@link MIN_REPEAT_CHARS} or more
 *   characters reads as a different value (`"TE" + "E"` is `"TEE"`).
 * - a repeat is dropped only when proven: the text as written does not read, and exactly one other
 *   reading does (repeats of 8 or more characters and a restart first, shorter ones only when none of those reads).
 * - readings of different values are refused (`ok: false`), never chosen; a finished join's
 *   `readings` are given, for the schema to settle (the one that validates, or none).
 * - when nothing reads, the text as written is the join (its defect is reported as it stands).
 */
export function joinContinuation(partial: string, continuation: string, finished: boolean): JoinedContinuation {
  const seam: Seam = { partial, valueStart: valueStartOf(partial), finished };
  const long: JoinReading[] = [];
  const short: JoinReading[] = [];
  if (partial.length > 0 && continuation.startsWith(partial)) long.push({ text: continuation, repeated: partial.length });
  for (let length = Math.min(partial.length - 1, continuation.length, MAX_REPEAT_CHARS); length >= 1; length--) {
    if (partial.endsWith(continuation.slice(0, length))) (length >= MIN_REPEAT_CHARS ? long : short).push({ text: partial + continuation.slice(length), repeated: length });
  }
  const asWritten: JoinReading = { text: partial + continuation, repeated: 0 };
  const refused = (readings: readonly JoinReading[]): JoinedContinuation => ({
    ok: false,
    message: `the continuation can be joined to the cut output in ${readings.length} ways that read as different values`,
    text: asWritten.text,
    ...(finished ? { readings } : {}),
  });
  const written = readingKey(asWritten, seam);
  if (written !== undefined) {
    const others = distinct(long, seam, written);
    return others.length === 0 ? { ok: true, ...asWritten } : refused([asWritten, ...others]);
  }
  const cutValue = tokensOnly(partial.slice(seam.valueStart));
  const restart = cutValue.length >= MIN_REPEAT_CHARS && !continuation.startsWith(partial) && tokensOnly(continuation).startsWith(cutValue);
  let found = distinct(restart ? [...long, { text: continuation, repeated: 0, restarted: true }] : long, seam);
  if (found.length === 0) found = distinct(short, seam);
  if (found.length === 0) return { ok: true, ...asWritten };
  return found.length === 1 ? { ok: true, ...(found[0] as JoinReading) } : refused(found);
}
