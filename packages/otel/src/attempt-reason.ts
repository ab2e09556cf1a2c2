import type { AgentEvents } from '@keel/core';
import { isTransientErrorKind } from '@keel/core/internal';

/** Why a model call was made: the `chat` span's `keel.request.reason`. */
export type AttemptReason = 'step' | 'feedback-retry' | 'tool-re-ask' | 'transient-retry' | 'provider-failover' | 'retry';

/** What the retry announced by a `reliability.retry` event is for. */
export function reasonOfRetry(event: AgentEvents['reliability.retry']): AttemptReason {
  if (event.decision === 'retry-other') return 'provider-failover';
  if (event.feedback !== undefined || event.errorKind === 'schema-fail' || event.errorKind === 'parse-fail') return 'feedback-retry';
  if (isTransientErrorKind(event.errorKind)) return 'transient-retry';
  return 'retry';
}
