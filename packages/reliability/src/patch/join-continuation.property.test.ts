import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractJsonCandidates } from '../json/extract-json';
import { scanPrefix } from '../json/scan-lenient-json';
import { type JoinedContinuation, joinContinuation } from './join-continuation';

/**
 * Attacks on joins: a model's answer, cut anywhere, continued exactly, with a repeat of the end of
 * the cut output, with a fragment of itself, or with noise. Whatever the join returns, its text is
 * the model's text: as written, or without a repeat only where the text as written does not read,
 * or the continuation alone only where it repeats the whole cut output. Never any other text.
 */

/** Answers as models write them: nested values, repeated strings, numbers written several ways, pretty or compact. */
const word = fc.constantFrom('Row, row, row your boat', 'aaaaaaaaaa', 'x', '', 'Gently', '1.10', '{"a": 1}', 'café ☕');
const leaf = fc.oneof(word, fc.integer({ min: -1000, max: 1000 }), fc.constantFrom(1.5, 0.25, 1e21, -0), fc.boolean(), fc.constant(null));
const value = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, fc.array(tie('value'), { maxLength: 5 }), fc.dictionary(fc.constantFrom('id', 'children', 'lines', 'note', 'n'), tie('value'), { maxKeys: 4 })),
})).value;
const answer = fc.tuple(fc.oneof(fc.array(value, { minLength: 1, maxLength: 6 }), fc.dictionary(fc.constantFrom('id', 'children', 'lines', 'note'), value, { minKeys: 1, maxKeys: 4 })), fc.constantFrom(0, 2)).map(([root, indent]) => JSON.stringify(root, null, indent));

/**
 * True when the join as written reads as exactly one complete value, with no comma or colon
 * inserted where the continuation begins (the answers here open at their first character).
 */
function reads(partial: string, continuation: string): boolean {
  const text = partial + continuation;
  const found = extractJsonCandidates(text, { repair: true });
  if (found.truncated || found.candidates.length !== 1 || (found.rejected?.length ?? 0) > 0) return false;
  const seam = partial.length + continuation.length - continuation.trimStart().length;
  return !scanPrefix(text).inserted.some((at) => at >= partial.trimEnd().length && at <= seam);
}

/** The join's text is the model's: as written, without a repeat it proved, or a restart that repeats the whole cut output. */
function expectModelText(joined: JoinedContinuation, partial: string, continuation: string, finished: boolean): void {
  const asWritten = partial + continuation;
  if (!joined.ok) {
    expect(joined.text).toBe(asWritten);
    for (const reading of joined.readings ?? []) expect(partial + continuation.slice(reading.repeated) === reading.text || (reading.restarted === true && reading.text === continuation)).toBe(true);
    return;
  }
  if (joined.restarted) {
    expect(joined.text).toBe(continuation);
    if (finished) expect(reads(partial, continuation)).toBe(false);
    return;
  }
  expect(joined.text).toBe(partial + continuation.slice(joined.repeated));
  if (joined.repeated > 0) {
    expect(partial.endsWith(continuation.slice(0, joined.repeated))).toBe(true);
    // A repeat is dropped only when the text as written does not read.
    if (finished) expect(reads(partial, continuation)).toBe(false);
  }
}

describe('a join never yields text the model did not write', () => {
  it('an exact continuation joins as written, or is refused as ambiguous; never another value', () => {
    fc.assert(
      fc.property(answer, fc.nat(), (text, at) => {
        const cut = 1 + (at % Math.max(1, text.length - 1));
        const joined = joinContinuation(text.slice(0, cut), text.slice(cut), true);
        expectModelText(joined, text.slice(0, cut), text.slice(cut), true);
        if (joined.ok) expect(joined.text).toBe(text);
      }),
      { numRuns: 300 },
    );
  });

  it('a continuation that repeats the end of the cut output: the whole answer, the text as written, or refused', () => {
    fc.assert(
      fc.property(answer, fc.nat(), fc.integer({ min: 1, max: 60 }), fc.boolean(), (text, at, repeat, finished) => {
        const cut = 1 + (at % Math.max(1, text.length - 1));
        const back = Math.min(repeat, cut);
        const end = finished ? text.length : Math.min(text.length - 1, cut + 40);
        const continuation = text.slice(cut - back, Math.max(end, cut - back));
        const partial = text.slice(0, cut);
        const joined = joinContinuation(partial, continuation, finished);
        expectModelText(joined, partial, continuation, finished);
        // A repeat of 8 or more characters is never kept where dropping it reads the same way: the join is the answer or refused.
        if (finished && joined.ok && back >= 8 && joined.text !== partial + continuation) expect(joined.text).toBe(text);
      }),
      { numRuns: 300 },
    );
  });

  it('a fragment of the answer is never taken as the whole', () => {
    fc.assert(
      fc.property(answer, fc.nat(), value, (text, at, fragment) => {
        const cut = 1 + (at % Math.max(1, text.length - 1));
        const partial = text.slice(0, cut);
        const continuation = ` ${JSON.stringify(fragment)}`;
        const joined = joinContinuation(partial, continuation, true);
        expectModelText(joined, partial, continuation, true);
        if (joined.ok && joined.restarted) expect(continuation.replace(/\s/g, '').startsWith(partial.replace(/\s/g, ''))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('noise after any cut: still only the model’s text', () => {
    fc.assert(
      fc.property(answer, fc.nat(), fc.string({ maxLength: 30 }), fc.boolean(), (text, at, noise, finished) => {
        const cut = 1 + (at % Math.max(1, text.length - 1));
        const partial = text.slice(0, cut);
        expectModelText(joinContinuation(partial, noise, finished), partial, noise, finished);
      }),
      { numRuns: 300 },
    );
  });
});
