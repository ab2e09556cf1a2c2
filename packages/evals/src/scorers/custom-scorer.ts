import type { ScoreInput, Scorer, ScoreReturn } from '../evaluate/eval-types';

/**
 * A scorer from a function of the run: it returns a result (`{ score, pass?, reason? }`), a number from 0 to 1
 * (passing at 0.5 or more) or a boolean, or a promise of one.
 *
 * ```ts
 * const short = scorer('short', ({ text }) => text.length <= 280);
 * ```
 */
export function scorer<TOutput = unknown, TExpected = unknown>(
  name: string,
  score: (input: ScoreInput<TOutput, TExpected>) => ScoreReturn | Promise<ScoreReturn>,
): Scorer<TOutput, TExpected> {
  if (typeof name !== 'string' || name === '') throw new TypeError('scorer(name, score): name must be a non-empty string');
  if (typeof score !== 'function') throw new TypeError(`scorer(${JSON.stringify(name)}, score): score must be a function`);
  return { name, score };
}
