import type { ErrorKind } from '../error-kind';
import type { ValidationFailure } from '../errors/validation-failure';
import type { TokenUsage } from '../usage';
import type { RecoveredEvent } from './gate-event';
import type { GateFeedback } from './gate-options';
import type { GateSettings } from './gate-settings';
import type { AttemptSummary } from './scope';

/**
 * What one gate run has learned so far: the memory the policy decides from. One per gate run (a
 * step's call, or one logical tool call's re-asks); never shared. Only the attempt loop changes it,
 * through `noteAttempt` and `applyDecision`.
 */
export interface GateMemory<TResponse> {
  readonly settings: GateSettings<TResponse>;
  readonly history: AttemptSummary[];
  /** Failure signatures of every validation failure so far. */
  readonly signatures: string[];
  /** Usage of this gate's attempts. */
  usage: TokenUsage;
  providerIndex: number;
  /** Feedback the next attempt carries. */
  feedback: GateFeedback | undefined;
  /** The kind of the latest attempt (what PreCheck rules see). */
  lastKind: ErrorKind;
  lastFailure: ValidationFailure | undefined;
  /** How the latest retry tried to overcome its failure, for `reliability.recovered`. */
  recovery: RecoveredEvent['via'];
  /** The cut output the next attempt continues (a `continue-output` decision), trailing whitespace removed. */
  continuation: string | undefined;
  /** Continuations made in a row for the current output. */
  continuations: number;
}
