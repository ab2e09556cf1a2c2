import type { AgentEvents } from '@keel/core';
import { describe, expect, it } from 'vitest';
import { reasonOfRetry } from './attempt-reason';

const retry = (fields: Partial<AgentEvents['reliability.retry']>): AgentEvents['reliability.retry'] => ({
  runId: 'r',
  step: 1,
  timestamp: 0,
  attempt: 1,
  rule: 'some-rule',
  errorKind: 'unknown',
  delayMs: 0,
  decision: 'retry',
  ...fields,
});

describe('reasonOfRetry()', () => {
  it('names what the next call is for: failover, feedback, a transient error, or a plain retry', () => {
    expect(reasonOfRetry(retry({ decision: 'retry-other', errorKind: 'overloaded' }))).toBe('provider-failover');
    expect(reasonOfRetry(retry({ errorKind: 'schema-fail', feedback: 'fix it' }))).toBe('feedback-retry');
    expect(reasonOfRetry(retry({ errorKind: 'parse-fail' }))).toBe('feedback-retry');
    expect(reasonOfRetry(retry({ errorKind: 'rate-limit' }))).toBe('transient-retry');
    expect(reasonOfRetry(retry({ errorKind: 'timeout' }))).toBe('transient-retry');
    expect(reasonOfRetry(retry({ errorKind: 'bad-response' }))).toBe('transient-retry');
    expect(reasonOfRetry(retry({ errorKind: 'unknown' }))).toBe('retry');
  });
});
