import { BACKOFF_DEFAULTS } from './defaults';
import type { ReliabilityScope } from './gate/scope';

/** Settings of {@link exponentialBackoff}. */
export interface ExponentialBackoffOptions {
  /** Delay before the first retry, in ms. Default 500. */
  readonly baseMs?: number;
  /** Growth per retry. Default 2. */
  readonly factor?: number;
  /** Largest delay, in ms. Default 30 000. */
  readonly maxMs?: number;
  /** Fraction of the delay randomised ("full jitter" is 1). Default 0.5. */
  readonly jitter?: number;
  /** Source of randomness in [0, 1); injectable for tests. */
  readonly random?: () => number;
}

/**
 * Exponential backoff with jitter, as a rule's `backoff`: the delay grows with the number of
 * retries already made in the gate run.
 */
export function exponentialBackoff(options: ExponentialBackoffOptions = {}): (scope: Pick<ReliabilityScope, 'retries'>) => number {
  const { baseMs = BACKOFF_DEFAULTS.baseMs, factor = BACKOFF_DEFAULTS.factor, maxMs = BACKOFF_DEFAULTS.maxMs, jitter = BACKOFF_DEFAULTS.jitter, random = Math.random } = options;
  return ({ retries }) => {
    const raw = Math.min(maxMs, baseMs * factor ** retries);
    return Math.round(raw * (1 - jitter) + raw * jitter * random());
  };
}
