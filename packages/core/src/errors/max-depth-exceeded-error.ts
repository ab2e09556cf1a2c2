import { KeelError } from '@keel/reliability';
import { hasMarker } from '@keel/reliability/internal';

const marker = Symbol.for('keel.error.MaxDepthExceededError');

/**
 * A run started through agents called as tools nests deeper than `maxDepth` allows (an agent
 * calling itself, say): it stops before any model call. Never retryable.
 */
export class MaxDepthExceededError extends KeelError {
  private readonly [marker] = true;
  override readonly name = 'MaxDepthExceededError';
  readonly retryable = false;
  readonly depth: number;
  readonly maxDepth: number;

  constructor({ depth, maxDepth }: { depth: number; maxDepth: number }) {
    super({ message: `runs nest ${depth} deep through agents called as tools; maxDepth allows ${maxDepth}` });
    this.depth = depth;
    this.maxDepth = maxDepth;
  }

  static isInstance(value: unknown): value is MaxDepthExceededError {
    return hasMarker(value, marker);
  }
}
