import type { RunResult } from '@keel/core';
import type { RunJobData, RunJobSummary } from './run-job';

/**
 * A job's return value, from its run's result: what every summary holds, then the value of a
 * complete run, or what `resumeRun` needs to continue a suspended one (agent `name`, state, tenant).
 */
export function jobSummary(result: RunResult<unknown>, name: string, data: Pick<RunJobData, 'tenant' | 'conversationId'>): RunJobSummary {
  const { tenant, conversationId } = data;
  const base = {
    runId: result.runId,
    text: result.text,
    usage: result.usage,
    attempts: result.attempts.length,
    steps: result.steps.length,
    finishReason: result.finishReason,
    durationMs: result.durationMs,
    ...(tenant === undefined ? {} : { tenant }),
    ...(conversationId === undefined ? {} : { conversationId }),
  };
  return result.status === 'suspended'
    ? {
        ...base,
        status: 'suspended',
        pendingApprovals: result.pendingApprovals,
        ...(result.unknownOutcomes.length === 0 ? {} : { unknownOutcomes: result.unknownOutcomes }),
        suspended: { agent: name, state: result.state, ...(tenant === undefined ? {} : { tenant }) },
      }
    : { ...base, status: 'complete', value: result.value, provenance: result.provenance };
}
