import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDevtools } from '@keel/devtools';
import { describe, expect, it } from 'vitest';
import { recordRefund } from './devtools';

describe('the trace viewer example (offline)', () => {
  it('records a run with a tool re-ask and two re-asks, and serves a page that shows them', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'keel-devtools-example-')), 'runs.jsonl');
    const result = await recordRefund(file);
    expect(result.status === 'complete' && result.value).toEqual({ action: 'refund', amount: 50 });
    expect(result.usage.modelCalls).toBe(5);
    const lines = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { event?: string; seq?: number; runId?: string });
    const events = lines.map((line) => line.event);
    // The run's journal, each entry once, numbered without a gap.
    const entries = lines.filter((line) => line.runId === result.runId && line.seq !== undefined).map((line) => line.seq);
    expect(entries).toEqual(entries.map((_, index) => index));
    expect(events.filter((event) => event === 'reliability.retry')).toHaveLength(2);
    expect(events.filter((event) => event === 'tool.re-ask')).toHaveLength(1);
    const viewer = await startDevtools({ file, port: 0 });
    try {
      const page = await (await fetch(`${viewer.url}?run=${result.runId}`)).text();
      expect(page).toContain('re-ask 1 of');
      expect(page).toContain('rule: schema-retry');
      expect(page).toContain('5 model call(s)');
      expect(page).toContain('I would refund it.');
    } finally {
      await viewer.close();
    }
  });
});
