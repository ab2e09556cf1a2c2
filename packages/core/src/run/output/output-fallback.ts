import { AbortedError, ValidationFailure } from '@keel/reliability';
import { raceSignal, reduceError } from '@keel/reliability/internal';
import type { Provenance } from '../../contracts/provenance';
import type { RunContext } from '../state/run-context';

/** A degraded value and the tier that produced it. */
export interface FallbackValue {
  readonly value: unknown;
  readonly tier: Exclude<Provenance, 'model'>;
}

/**
 * The fallback tiers after the model's valid answer: the user's `fallback` (its result
 * re-validated), then `canned` (validated at build). Returns `undefined` when no tier applies.
 * A fallback that throws or returns an invalid value is reported in the event's reason; `rule` is
 * the rule whose decision the fallback answers, named in the event.
 */
export async function resolveFallback(state: RunContext, failure: ValidationFailure | undefined, reason: string, rule: string): Promise<FallbackValue | undefined> {
  const options = state.config.outputFallback;
  const validator = state.config.output?.validator;
  if (!options || !validator) return undefined;
  let why = reason;
  if (options.fallback) {
    const cause = failure ?? new ValidationFailure({ stage: 'schema-validate', message: reason, rawOutput: '', issues: [] });
    try {
      // User code and async validators are raced against the signal: neither can hold the run.
      const candidate = await raceSignal(Promise.resolve().then(() => options.fallback?.(cause, cause.rawOutput)), state.signal);
      const checked = await raceSignal(Promise.resolve(validator.validate(candidate)), state.signal);
      if (checked.ok) {
        state.emit('output.fallback-used', { tier: 'fallback', rule, reason });
        return { value: checked.value, tier: 'fallback' };
      }
      why = `${reason}; the fallback value failed the schema: ${checked.issues.map((issue) => issue.message).join('; ')}`;
    } catch (error) {
      if (state.signal?.aborted || AbortedError.isInstance(error)) throw error;
      why = `${reason}; the fallback threw: ${reduceError(error).message}`;
    }
  }
  if (options.canned !== undefined) {
    state.emit('output.fallback-used', { tier: 'canned', rule, reason: why });
    return { value: options.canned, tier: 'canned' };
  }
  return undefined;
}
