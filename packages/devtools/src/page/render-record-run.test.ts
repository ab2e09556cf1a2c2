import { describe, expect, it } from 'vitest';
import { line, recordAttempt, recordLine } from '../testing/record-lines';
import { supportRun } from '../testing/record-support-run';
import { traceRuns } from '../view/build-run-views';
import type { ReadEvent } from '../view/parse-trace-line';
import { renderApp } from './render-page';

/** The page of one run of `events`, as the server renders it. */
const page = (events: readonly ReadEvent[], runId: string) =>
  renderApp({ file: 'runs.jsonl', snapshot: { events, skippedLines: 0, version: 1, exists: true }, runs: traceRuns(events), runId }).html;

describe('the page of a run read from its records', () => {
  it('renders what the record holds, and nothing it lacks as undefined or NaN', () => {
    const html = page(supportRun, 'parent');
    expect(html).not.toMatch(/undefined|NaN/);
    expect(html).not.toContain('message(s)');
    expect(html).toContain('1,700 in · 30 out · <b class="cost" data-part="cost">$0.005550</b> · 1.5 ms');
    expect(html).toContain('<p class="status" data-part="status">invalid (parse-fail)</p>');
    expect(html).toContain('Ended <b>ok</b> after 1000.0 ms');
    expect(html).toContain('data-run-id="child"');
    expect(html).toContain('<span data-part="model-calls">7 model call(s) (1 by sub-agents)</span>');
  });

  it('renders runs in progress and hand-edited records without undefined or NaN', () => {
    const events = [
      line('model.error', { runId: 'live', step: 1, attempt: 1, errorKind: 'timeout', errorName: 'TimeoutError' }),
      recordLine('odd', { status: 9, durationMs: 'long', modelCalls: undefined, attempts: [7, { step: 1, status: 'error', inputTokens: 'many' }, recordAttempt({ attempt: 2, feedbackSent: true, latencyMs: 'slow' })], toolCalls: [{ step: 1 }] }),
    ];
    for (const runId of ['live', 'odd']) expect(page(events, runId)).not.toMatch(/undefined|NaN/);
    expect(page(events, 'live')).toContain('running…');
    expect(page(events, 'live')).toContain("model calls, tokens and cost come with the run's record, when it ends");
    expect(page(events, 'odd')).toContain('no event of the trace says which');
  });
});
