import { KeelError } from '@keel/reliability';
import { hasMarker } from '@keel/reliability/internal';

const marker = Symbol.for('keel.error.ScriptExhaustedError');

/** A scripted model was called more times than its script has answers. */
export class ScriptExhaustedError extends KeelError {
  private readonly [marker] = true;
  override readonly name = 'ScriptExhaustedError';
  readonly retryable = false;
  readonly errorKind = 'bad-request' as const;
  /** 1-based number of the call that found the script empty. */
  readonly call: number;

  constructor({ call, scriptLength }: { call: number; scriptLength: number }) {
    super({ message: `Scripted model ran out: call ${call} was made but the script has ${scriptLength} answer${scriptLength === 1 ? '' : 's'}` });
    this.call = call;
  }

  static isInstance(value: unknown): value is ScriptExhaustedError {
    return hasMarker(value, marker);
  }
}
