import { errorMessageOf } from '@keel/core/internal';
import type { ScoreInput, Scorer, ScoreResult } from '../evaluate/eval-types';

/** A numeric score passes at this value or more, unless the scorer says otherwise. */
export const DEFAULT_THRESHOLD = 0.5;

const clamp = (score: number) => (Number.isFinite(score) ? Math.min(1, Math.max(0, score)) : 0);

/** What a scorer returned, as a {@link ScoreResult}: a boolean is 1 or 0, a number passes at 0.5, scores are clamped to 0..1. */
export function toScoreResult(raw: unknown, scorer: string): ScoreResult {
  if (typeof raw === 'boolean') return { score: raw ? 1 : 0, pass: raw };
  if (typeof raw === 'number') return { score: clamp(raw), pass: clamp(raw) >= DEFAULT_THRESHOLD };
  if (typeof raw === 'object' && raw !== null && typeof (raw as ScoreResult).score === 'number') {
    const { score, pass, reason } = raw as ScoreResult;
    return { score: clamp(score), pass: typeof pass === 'boolean' ? pass : clamp(score) >= DEFAULT_THRESHOLD, ...(typeof reason === 'string' ? { reason } : {}) };
  }
  return { score: 0, pass: false, reason: `scorer ${scorer} returned neither a score, a number nor a boolean` };
}

/** Runs one scorer on one run; a scorer that throws scores 0 with the error as reason. */
export async function runScorer<TOutput, TExpected>(scorer: Scorer<TOutput, TExpected>, input: ScoreInput<TOutput, TExpected>): Promise<ScoreResult> {
  try {
    return toScoreResult(await scorer.score(input), scorer.name);
  } catch (error) {
    return { score: 0, pass: false, reason: `scorer threw: ${errorMessageOf(error)}` };
  }
}
