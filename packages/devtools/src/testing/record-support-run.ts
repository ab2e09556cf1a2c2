import type { ReadEvent } from '../view/parse-trace-line';
import { line, recordAttempt, recordLine, usage } from './record-lines';

/**
 * The support run of the event-by-event tests, as the record format writes it: a tool re-ask in
 * step 1, a sub-agent called as a tool in step 2 (its record first), two retries of the answer in
 * step 3; seven model calls, one of them the sub-agent's.
 */
export const supportRun: readonly ReadEvent[] = [
  line('tool.re-ask', { runId: 'parent', step: 1, toolCallId: 'lookup-1', tool: 'lookup_order', rule: 'tool-re-ask', reAsk: 1 }),
  recordLine('child', {
    parentRunId: 'parent',
    parentToolCallId: 'policy-1',
    timestamp: 1500,
    startedAt: 1400,
    durationMs: 100,
    modelCalls: 1,
    ...usage(300, 20, 0.0012),
    attempts: [recordAttempt(usage(300, 20, 0.0012))],
    steps: [{ step: 1, finishReason: 'stop', toolCalls: 0, modelCalls: 1, durationMs: 90 }],
  }),
  line('validation.failed', { runId: 'parent', step: 3, stage: 'json-parse', attempt: 1, validationFailures: 1, issueCount: 1 }),
  line('reliability.retry', { runId: 'parent', step: 3, attempt: 1, kind: 'schema-retry', rule: 'schema-retry', errorKind: 'parse-fail', delayMs: 0, decision: 'retry' }),
  line('validation.failed', { runId: 'parent', step: 3, stage: 'schema-validate', attempt: 2, validationFailures: 2, issueCount: 1 }),
  line('reliability.retry', { runId: 'parent', step: 3, attempt: 2, kind: 'schema-retry', rule: 'schema-retry', errorKind: 'schema-fail', delayMs: 0, decision: 'retry' }),
  line('reliability.recovered', { runId: 'parent', step: 3, attempt: 3, priorFailures: 2, via: 'feedback' }),
  recordLine('parent', {
    step: 3,
    timestamp: 2000,
    modelCalls: 7,
    ...usage(9900, 240, 0.0333),
    attempts: [
      recordAttempt(usage(1200, 40, 0.0042)),
      recordAttempt({ purpose: 'tool-re-ask', toolCallId: 'lookup-1', feedbackSent: true, ...usage(1400, 40, 0.0048) }),
      recordAttempt({ step: 2, ...usage(1500, 50, 0.00525) }),
      recordAttempt({ step: 3, status: 'invalid', errorKind: 'parse-fail', issueCount: 1, ...usage(1700, 30, 0.00555) }),
      recordAttempt({ step: 3, attempt: 2, status: 'invalid', errorKind: 'schema-fail', issueCount: 1, feedbackSent: true, ...usage(1900, 30, 0.00615) }),
      recordAttempt({ step: 3, attempt: 3, feedbackSent: true, ...usage(1900, 30, 0.00615) }),
    ],
    steps: [
      { step: 1, finishReason: 'tool-calls', toolCalls: 1, modelCalls: 2, durationMs: 10 },
      { step: 2, finishReason: 'tool-calls', toolCalls: 1, modelCalls: 1, durationMs: 10 },
      { step: 3, finishReason: 'stop', toolCalls: 0, modelCalls: 3, durationMs: 10 },
    ],
    toolCalls: [
      { toolCallId: 'lookup-1', tool: 'lookup_order', step: 1, isError: false, durationMs: 8 },
      { toolCallId: 'policy-1', tool: 'policy_check', step: 2, isError: false, durationMs: 3 },
    ],
  }),
];
