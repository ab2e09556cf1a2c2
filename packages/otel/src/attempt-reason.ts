import type { AgentEvents } from '@keel/core';

/** Why a model call was made: `gen_ai`-style attribute `keel.attempt.reason`. */
export type AttemptReason = 'step' | 'feedback-retry' | 'tool-re-ask' | 'transient-retry' | 'provider-fallback' | 'retry';

const TRANSIENT: ReadonlySet<string> = new Set(['rate-limit', 'overloaded', 'server-error', 'timeout', 'network']);

/** What the retry announced by a `reliability.retry` event is for. */
export function reasonOfRetry(event: AgentEvents['reliability.retry']): AttemptReason {
  if (event.decision === 'retry-other') return 'provider-fallback';
  if (event.feedback !== undefined || event.errorKind === 'schema-fail' || event.errorKind === 'parse-fail') return 'feedback-retry';
  if (TRANSIENT.has(event.errorKind)) return 'transient-retry';
  return 'retry';
}
