import { keelError } from '@keel/reliability/internal';

/** A scripted model was called more times than its script has answers. */
export class ScriptExhaustedError extends keelError('ScriptExhaustedError', { retryable: false, errorKind: 'bad-request' }) {
  /** 1-based number of the call that found the script empty. */
  readonly call: number;

  constructor({ call, scriptLength }: { call: number; scriptLength: number }) {
    super({ message: `Scripted model ran out: call ${call} was made but the script has ${scriptLength} answer${scriptLength === 1 ? '' : 's'}` });
    this.call = call;
  }
}
