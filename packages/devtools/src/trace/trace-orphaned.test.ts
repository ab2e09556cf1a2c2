import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { describe, expect, it } from 'vitest';
import { fileTrace } from './file-trace';
import { traceThread } from './trace-thread';

/**
 * Makes the process's writing thread fail: a trace whose first slab is full and whose next one is
 * not shared memory, which the thread's next read throws on. (This file runs in a process of its
 * own: the thread is shared by every trace of the process.)
 */
function failWritingThread(): Promise<string> {
  return new Promise((resolve) => {
    const { thread, id } = traceThread({ sealed: () => undefined, spare: () => undefined, stopped: resolve });
    const slab = new SharedArrayBuffer(64);
    Atomics.store(new Int32Array(slab, 0, 2), 1, 1);
    thread.send({ type: 'open', id, path: join(tmpdir(), 'never-written.jsonl'), secrets: [], control: new SharedArrayBuffer(16), slab });
    thread.send({ type: 'slab', id, slab: 5 as unknown as SharedArrayBuffer });
  });
}

describe('a trace whose writing thread is gone', () => {
  it("is written from the run's thread from then on: every record, nothing reported lost, flush() settles", async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'keel-trace-orphaned-')), 'runs.jsonl');
    const trace = fileTrace(path);
    const reports: string[] = [];
    const agent = Agent.create({ provider: scriptedModel(['one', 'two', 'three']), model: 'm' })
      .use(trace)
      .on('listener.error', (event) => void reports.push(event.message))
      .build();
    const first = await agent.run('first');
    const second = await agent.run('second');
    // The second run's record is published, not yet written, when the thread fails.
    expect(await failWritingThread()).toMatch(/failed|stopped/);
    const third = await agent.run('third');
    await trace.flush();
    await new Promise((resolve) => setImmediate(resolve));
    const records = readFileSync(path, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => (JSON.parse(line) as { event: string; payload: { runId: string } }).payload.runId);
    expect(records).toEqual([first.runId, second.runId, third.runId]);
    expect(reports).toEqual([]);
  });
});
