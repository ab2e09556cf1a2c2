import { appendFileSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TraceLine } from './parse-trace-line';
import { TraceFileReader } from './trace-file-reader';

/** A journal entry's line. */
const line = (runId: string, seq = 0) => `${JSON.stringify({ seq, type: 'input', runId, at: 1, step: 0, elapsedMs: 0 })}\n`;
/** The run ids of what was read. */
const runIds = (snapshot: { lines: readonly TraceLine[] }) => snapshot.lines.map((read) => (read.kind === 'entry' ? read.entry.runId : read.kind === 'event' ? read.event.payload.runId : 'note'));
const fresh = () => join(mkdtempSync(join(tmpdir(), 'keel-trace-reader-')), 'runs.jsonl');

describe('TraceFileReader', () => {
  it('reads a missing file as no lines, then the lines once it is written', async () => {
    const path = fresh();
    const reader = new TraceFileReader(path);
    await expect(reader.read()).resolves.toMatchObject({ lines: [], exists: false });
    writeFileSync(path, line('a'));
    const snapshot = await reader.read();
    expect(snapshot).toMatchObject({ exists: true, skippedLines: 0 });
    expect(runIds(snapshot)).toEqual(['a']);
  });

  it('reads only what was appended, and keeps an unfinished line (a multi-byte character cut in two included) for the next read', async () => {
    const path = fresh();
    const reader = new TraceFileReader(path);
    const whole = Buffer.from(line('é-run'));
    writeFileSync(path, Buffer.concat([Buffer.from(line('a')), whole.subarray(0, 4)]));
    const first = await reader.read();
    expect(first.lines).toHaveLength(1);
    appendFileSync(path, whole.subarray(4));
    const second = await reader.read();
    expect(runIds(second)).toEqual(['a', 'é-run']);
    expect(second.version).toBeGreaterThan(first.version);
    const third = await reader.read();
    expect(third.version).toBe(second.version);
  });

  it('reads entries, events and notes of dropped lines, counts the other lines and keeps going', async () => {
    const path = fresh();
    const bad = [
      'not json',
      '[]',
      '{"event":1,"payload":{}}',
      '{"event":"x","payload":{"runId":"","step":1,"timestamp":1}}',
      '{"event":"x","payload":{"runId":"r","step":"1","timestamp":1}}',
      '{"event":"x","payload":{"runId":"r","step":1,"timestamp":1,"parentRunId":7}}',
      '{"seq":-1,"type":"input","runId":"r","at":1,"step":0}',
      '{"seq":0,"type":"input","runId":7,"at":1,"step":0}',
      '{"trace":{"dropped":"many"}}',
      '{"event":"run.record","payload":{"runId":"old","step":1,"timestamp":1}}',
    ];
    const good = ['{"event":"run.start","payload":{"runId":"e","step":0,"timestamp":1}}', '{"trace":{"dropped":3}}'];
    writeFileSync(path, `${[...bad, ...good].join('\n')}\n${line('ok')}`);
    const snapshot = await new TraceFileReader(path).read();
    expect(snapshot.skippedLines).toBe(10);
    expect(runIds(snapshot)).toEqual(['e', 'note', 'ok']);
  });

  it('starts over when the file is truncated, replaced or removed', async () => {
    const path = fresh();
    const reader = new TraceFileReader(path);
    writeFileSync(path, line('a') + line('b'));
    expect((await reader.read()).lines).toHaveLength(2);
    writeFileSync(path, line('c'));
    expect(runIds(await reader.read())).toEqual(['c']);
    const other = `${path}.new`;
    writeFileSync(other, line('d') + line('e'));
    renameSync(other, path);
    expect(runIds(await reader.read())).toEqual(['d', 'e']);
    rmSync(path);
    await expect(reader.read()).resolves.toMatchObject({ lines: [], exists: false });
  });
});
