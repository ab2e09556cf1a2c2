import type { AttemptRecord } from '@keel/reliability';
import type { ToolContext } from './tool';

/**
 * What a tool call's context carries, out of sight, about the run that made it: an agent called
 * as a tool (`agent.asTool()`) reads it to tie its run to the parent's (events, usage, budgets).
 * Keyed by a symbol no user code reaches through the public API.
 */
export interface ParentRun {
  readonly runId: string;
  readonly toolCallId: string;
  /** Records one model call of the sub-run in the parent run's ledger, as it happens. */
  readonly record: (attempt: AttemptRecord) => void;
}

/** The key of {@link ParentRun} on a tool context. */
export const PARENT_RUN: unique symbol = Symbol('keel.parentRun');

/** The parent run a tool context belongs to, when Keel made the context. */
export function parentRunOf(context: ToolContext): ParentRun | undefined {
  const parent: unknown = (context as { [PARENT_RUN]?: unknown })[PARENT_RUN];
  return typeof parent === 'object' && parent !== null ? (parent as ParentRun) : undefined;
}
