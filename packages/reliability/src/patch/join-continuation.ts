import { extractJsonCandidates } from '../json/extract-json';

/** Shortest repeat taken as the model resending the end of its cut output, in characters. */
export const MIN_REPEAT_CHARS = 8;

/** Longest repeat looked for, in characters (the whole cut output is always looked for). */
const MAX_REPEAT_CHARS = 4096;

/** The outcome of {@link joinContinuation}. */
export type JoinedContinuation =
  | {
      readonly ok: true;
      readonly text: string;
      /** Characters of the continuation dropped as a repeat. */
      readonly repeated: number;
      /** The continuation was a whole answer of its own, taken instead of a join. */
      readonly restarted?: true;
    }
  | { readonly ok: false; readonly message: string; readonly text: string };

/** The continuation reads as one complete JSON value that opens as the cut output does. */
function startsOver(partial: string, continuation: string): boolean {
  const opening = partial.trimStart()[0];
  if (opening !== '{' && opening !== '[') return false;
  if (continuation.trimStart()[0] !== opening) return false;
  const found = extractJsonCandidates(continuation, { repair: true });
  return !found.truncated && found.candidates.length === 1;
}

/**
 * Joins a cut output and the model's continuation of it, removing what the continuation repeats:
 * - the ways to join are: as written, and dropping the continuation's first `k` characters where
 *   they repeat the last `k` of `partial`. A repeat of at least {@link MIN_REPEAT_CHARS} characters
 *   (or the whole partial) is weighed against the text as written; a shorter one only when neither
 *   reads as JSON (with a prefill the model never repeats, and `"TE" + "E"` is `"TEE"`).
 * - with one way, it is taken. When the continuation was itself cut (`finished` false), the
 *   longest repeat is dropped (the next continuation decides the rest).
 * - when it finished, the joins that read as exactly one JSON value are kept: when they all read
 *   the same value (or none reads), the longest repeat is dropped; when they read as different
 *   values the join is ambiguous and refused (`ok: false`), never guessed.
 * - when no join reads but the continuation alone is one complete JSON value opening as the cut
 *   output does, the model started over: the continuation is taken as the whole reply
 *   (`restarted`).
 */
export function joinContinuation(partial: string, continuation: string, finished: boolean): JoinedContinuation {
  const repeats: number[] = [];
  const short: number[] = [];
  if (partial.length > 0 && continuation.startsWith(partial)) repeats.push(partial.length);
  for (let length = Math.min(partial.length - 1, continuation.length, MAX_REPEAT_CHARS); length >= 1; length--) {
    if (partial.endsWith(continuation.slice(0, length))) (length >= MIN_REPEAT_CHARS ? repeats : short).push(length);
  }
  const longest = repeats[0] ?? 0;
  const join = (length: number) => partial + continuation.slice(length);
  if (!finished) return { ok: true, text: join(longest), repeated: longest };
  const readings = (lengths: readonly number[]) => {
    const values = new Map<string, number>();
    for (const length of lengths) {
      const found = extractJsonCandidates(join(length), { repair: true });
      if (found.truncated || found.candidates.length !== 1) continue;
      const key = JSON.stringify((found.candidates[0] as { value: unknown }).value);
      if (!values.has(key)) values.set(key, length);
    }
    return values;
  };
  // As written or without a long repeat first; a short repeat only when neither reads.
  let values = readings([...repeats, 0]);
  if (values.size === 0 && short.length > 0) values = readings(short);
  // No join reads, but the reply is a whole answer of its own: the model started over (a provider
  // that ignores the cut output asks the question again). It is judged as the complete reply it is.
  if (values.size === 0 && startsOver(partial, continuation)) return { ok: true, text: continuation, repeated: 0, restarted: true };
  if (values.size <= 1) {
    const only = values.values().next();
    const length = only.done ? longest : only.value;
    return { ok: true, text: join(length), repeated: length };
  }
  return { ok: false, message: `the continuation can be joined to the cut output in ${values.size} ways that read as different values`, text: join(0) };
}
