import { keelError } from './keel-error';

/**
 * A provider broke the model spec: it answered `undefined`/`null`, content that is missing or not
 * a list, a part without its text, or threw something that is not an error (`undefined`). Kind
 * `bad-response`, retried like a server error by the default rules, never blamed on the validator.
 */
export class BadResponseError extends keelError('BadResponseError', { retryable: true, errorKind: 'bad-response' }) {
  constructor({ message, cause }: { message: string; cause?: unknown }) {
    super({ message: `The provider's response broke the model spec: ${message}`, cause });
  }
}
