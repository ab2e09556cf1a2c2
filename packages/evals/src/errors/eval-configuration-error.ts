import { keelError } from '@keel/core/internal';

/**
 * An eval cannot run as given: bad `evaluate()` options (no agent, a dataset that is not an array
 * of `{ input }`, a bad concurrency or scorer), an eval file that exports no eval, or a baseline
 * report that is not one. Nothing ran.
 */
export class EvalConfigurationError extends keelError('EvalConfigurationError', { retryable: false }) {}
