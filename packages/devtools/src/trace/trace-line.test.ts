import { type AgentEventName, type AgentEvents, recordTrace } from '@keel/core';
import { describe, expect, it } from 'vitest';
import { recordReAskRun } from '../testing/support-runs';
import { CONTENT_FIELDS } from './content-fields';
import { REDACTED, secretRedactor } from './redact-secrets';
import { traceLineWriter } from './trace-line';

type Payload = AgentEvents[AgentEventName];
const none = (json: string) => json;
const asPayload = (value: Record<string, unknown>) => value as unknown as Payload;
/** What `JSON.stringify` writes for the line, content fields left out unless `recordContent`. */
const reference = (event: AgentEventName, payload: Payload, recordContent: boolean) => {
  const fields = CONTENT_FIELDS[event] as readonly string[] | 'event';
  const kept = recordContent || fields === 'event' ? payload : Object.fromEntries(Object.entries(payload).filter(([key]) => !fields.includes(key)));
  return `${JSON.stringify({ event, payload: kept })}\n`;
};

describe('traceLineWriter', () => {
  it('writes the bytes JSON.stringify writes, for every event of a recorded run, with and without content', async () => {
    const recorder = recordTrace();
    await recordReAskRun(recorder);
    const events = recorder.trace().runs.flatMap((run) => run.events);
    expect(events.length).toBeGreaterThan(20);
    for (const recordContent of [true, false]) {
      const line = traceLineWriter({ recordContent, redact: none });
      for (const { event, payload } of events) expect(line(event, payload)).toBe(reference(event, payload, recordContent));
    }
  });

  it('escapes what JSON must, as JSON.stringify does: quotes, backslashes, control characters, lone surrogates; keeps the rest', () => {
    const line = traceLineWriter({ recordContent: true, redact: none });
    const hostile = ['say "hi"', 'back\\slash', 'tab\there\nnewline\u0000nul\u001f', 'lone \ud800 surrogate', 'pair 😀 ok', 'line\u2028separator', 'é ü 中文', '</script><script>x()</script>', ''];
    for (const text of hostile) {
      const payload = asPayload({ runId: text || 'r', step: 1, timestamp: 2, message: text, errorName: text.repeat(3) });
      const written = line('listener.error', payload);
      expect(written).toBe(reference('listener.error', payload, true));
      expect(written.indexOf('\n')).toBe(written.length - 1);
      expect(JSON.parse(written)).toEqual({ event: 'listener.error', payload: { ...payload } });
    }
  });

  it('writes numbers and odd values as JSON.stringify does (non-finite as null, undefined left out)', () => {
    const line = traceLineWriter({ recordContent: true, redact: none });
    const payload = asPayload({ runId: 'r', step: -0, timestamp: 1e21, latencyMs: 0.1 + 0.2, costUsd: Number.NaN, durationMs: Number.POSITIVE_INFINITY, skipped: undefined, final: false, ok: true, nested: { a: [1, 'two'] } });
    expect(line('run.end', payload)).toBe(reference('run.end', payload, true));
  });

  it('leaves content fields out without recordContent', () => {
    const line = traceLineWriter({ recordContent: false, redact: none });
    const written = JSON.parse(line('validation.failed', asPayload({ runId: 'r', step: 1, timestamp: 2, stage: 'json-parse', message: 'quotes the output', pathText: '/a', rawOutput: 'the output', issueCount: 1 })));
    expect(written).toEqual({ event: 'validation.failed', payload: { runId: 'r', step: 1, timestamp: 2, stage: 'json-parse', issueCount: 1 } });
  });

  it('replaces secrets inside strings only, remembered or not, and never touches a number', () => {
    const line = traceLineWriter({ recordContent: true, redact: secretRedactor(['12345678', 'hunter2-password']) });
    for (let round = 0; round < 2; round++) {
      const written = line('listener.error', asPayload({ runId: 'run-with-hunter2-password', step: 1, timestamp: 1234567890123, message: 'key sk-ant-api03-abcdefghijklmnop and 12345678', errorName: 'short' }));
      const parsed = JSON.parse(written) as { payload: Record<string, unknown> };
      expect(parsed.payload).toEqual({ runId: `run-with-${REDACTED}`, step: 1, timestamp: 1234567890123, message: `key ${REDACTED} and ${REDACTED}`, errorName: 'short' });
    }
  });
});
