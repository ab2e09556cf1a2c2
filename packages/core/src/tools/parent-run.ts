import type { AttemptRecord, PreCheckRule, PricingTable, TokenUsage } from '@keel/reliability';
import type { ModelResponse } from '@keel/provider';
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
  /** How deep the parent run is: 0 for a run no other run started. */
  readonly depth: number;
  /** The deepest nesting the runs above allow (`maxDepth`, the smallest along the chain). */
  readonly maxDepth: number;
  /** The usage of the whole tree of runs so far, as the top run's budgets count it. */
  readonly usage: () => TokenUsage;
  /** The PreCheck rules (budgets) of the runs above: a nested run spends from them too. */
  readonly preCheck: readonly PreCheckRule<ModelResponse>[];
  /** The prices the parent run's calls are counted at: a nested run prices with them the models it has no price for. */
  readonly pricing?: PricingTable;
  /** Where the parent run's stream parts go, when it streams: a nested run forwards its parts there (see `agent.asTool()`). */
  readonly sink?: ParentSink;
  /** The call resumes an agent that suspended inside it: its sealed state, and the decision on its calls. */
  readonly resume?: { readonly state: unknown; readonly approved: boolean; readonly reason?: string | undefined };
}

/** A streamed parent run's sink, by shape (tools do not import the agent API): `StreamSink`. */
export interface ParentSink {
  readonly mode: 'buffer' | 'pass-through';
  push(part: never): void;
}

/** The key of {@link ParentRun} on a tool context. */
export const PARENT_RUN: unique symbol = Symbol('keel.parentRun');

/** The parent run a tool context belongs to, when Keel made the context. */
export function parentRunOf(context: ToolContext): ParentRun | undefined {
  const parent: unknown = (context as { [PARENT_RUN]?: unknown })[PARENT_RUN];
  return typeof parent === 'object' && parent !== null ? (parent as ParentRun) : undefined;
}
