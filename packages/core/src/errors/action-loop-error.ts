import { ReliabilityFailFastError } from '@keel/reliability';
import { hasMarker } from '@keel/reliability/internal';
import type { RunRecord } from '../contracts/run-result';

const marker = Symbol.for('keel.error.ActionLoopError');

/** Constructor fields of {@link ActionLoopError}: the gate's stop, and the run as far as it got. */
interface ActionLoopErrorOptions {
  /** The stop the action-loop rule decided (kind and error kind `action-loop`). */
  readonly stop: ReliabilityFailFastError;
  readonly partial: RunRecord;
}

/**
 * The run went round a loop of actions after being told, and the action-loop rules stopped it.
 * A {@link ReliabilityFailFastError} (`kind` and `errorKind` both `action-loop`, a message that
 * names the tools and the pattern that looped) that also carries the run as far as it got:
 * `partial`, with the tool calls and their results so far. Not retryable.
 */
export class ActionLoopError extends ReliabilityFailFastError {
  private readonly [marker] = true;
  /** The run as far as it got: messages, steps, tool calls with their results, usage, attempts (no `value`). */
  readonly partial: RunRecord;

  constructor({ stop, partial }: ActionLoopErrorOptions) {
    super({
      kind: stop.kind,
      ...(stop.label === undefined ? {} : { label: stop.label }),
      phase: stop.phase,
      attempt: stop.attempt,
      errorKind: stop.errorKind,
      attempts: stop.attempts,
      ...(stop.cause === undefined ? {} : { cause: stop.cause }),
      ...(stop.lastValidationFailure === undefined ? {} : { lastValidationFailure: stop.lastValidationFailure }),
    });
    this.partial = partial;
  }

  /** True for a stop of the action-loop rules (`errorKind: 'action-loop'`) that has no partial result yet. */
  static isLoopStop(value: unknown): value is ReliabilityFailFastError {
    return ReliabilityFailFastError.isInstance(value) && value.errorKind === 'action-loop' && !ActionLoopError.isInstance(value);
  }

  static override isInstance<T>(this: abstract new (...args: never) => T, value: unknown): value is T {
    return hasMarker(value, marker);
  }
}
