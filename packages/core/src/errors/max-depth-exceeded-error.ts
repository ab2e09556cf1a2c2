import { keelError } from '@keel/reliability/internal';

/**
 * A run started through agents called as tools nests deeper than `maxDepth` allows (an agent
 * calling itself, say): it stops before any model call. Never retryable.
 */
export class MaxDepthExceededError extends keelError('MaxDepthExceededError', { retryable: false }) {
  readonly depth: number;
  readonly maxDepth: number;

  constructor({ depth, maxDepth }: { depth: number; maxDepth: number }) {
    super({ message: `runs nest ${depth} deep through agents called as tools; maxDepth allows ${maxDepth}` });
    this.depth = depth;
    this.maxDepth = maxDepth;
  }
}
