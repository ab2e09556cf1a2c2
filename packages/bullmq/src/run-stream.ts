import type { AgentStreamPart } from '@keel/core';
import type { RunJobSummary } from './run-job';

/**
 * A part of a job's run as the enqueuer reads it (`agentQueue(…).stream(job)`): the agent's
 * stream parts, and around them what only a job has.
 * - `attempt-start`: a run of the job begins (`attempt` counts from 1). An attempt above 1 is the
 *   job run again (a transient failure BullMQ retries, a worker that died): the parts of the
 *   earlier attempt are void, start over.
 * - `result`: the run succeeded; `summary` is the job's return value. The last part.
 * - `failed`: the run failed with `reason` (the job's failure reason). The last part unless
 *   `retrying`, when the job will run again and an `attempt-start` follows.
 */
export type RunStreamPart<T = unknown> =
  | { readonly type: 'attempt-start'; readonly attempt: number }
  | Exclude<AgentStreamPart<T>, { readonly type: 'result' }>
  | { readonly type: 'result'; readonly summary: RunJobSummary<T> }
  | { readonly type: 'failed'; readonly reason: string; readonly retrying: boolean };

/** The Redis stream a job's parts go to (in the queue's prefix, so in its hash slot on a cluster). */
export function runStreamKey(prefix: string, queueName: string, jobId: string, runKey: string): string {
  return `${prefix}:${queueName}:keel-stream:${jobId}:${runKey}`;
}

/** How long a run's stream is kept after its last part. */
export const STREAM_TTL_SECONDS = 3_600;
/** Parts kept per stream (the oldest go first). */
export const STREAM_MAX_PARTS = 100_000;

/** Whether `part` is a stream's last: the run's result, or a failure no retry follows. */
export function isLastPart<T>(part: RunStreamPart<T>): part is Extract<RunStreamPart<T>, { readonly type: 'result' | 'failed' }> {
  return part.type === 'result' || (part.type === 'failed' && !part.retrying);
}
