import { appendFileSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TraceFileReader } from './trace-file-reader';

const line = (runId: string, event = 'step.start', step = 1) => `${JSON.stringify({ event, payload: { runId, step, timestamp: 1 } })}\n`;
const fresh = () => join(mkdtempSync(join(tmpdir(), 'keel-trace-reader-')), 'runs.jsonl');

describe('TraceFileReader', () => {
  it('reads a missing file as no events, then the events once it is written', async () => {
    const path = fresh();
    const reader = new TraceFileReader(path);
    await expect(reader.read()).resolves.toMatchObject({ events: [], exists: false });
    writeFileSync(path, line('a'));
    const snapshot = await reader.read();
    expect(snapshot).toMatchObject({ exists: true, skippedLines: 0 });
    expect(snapshot.events.map((event) => event.payload.runId)).toEqual(['a']);
  });

  it('reads only what was appended, and keeps an unfinished line (a multi-byte character cut in two included) for the next read', async () => {
    const path = fresh();
    const reader = new TraceFileReader(path);
    const whole = Buffer.from(line('é-run'));
    writeFileSync(path, Buffer.concat([Buffer.from(line('a')), whole.subarray(0, 4)]));
    const first = await reader.read();
    expect(first.events).toHaveLength(1);
    appendFileSync(path, whole.subarray(4));
    const second = await reader.read();
    expect(second.events.map((event) => event.payload.runId)).toEqual(['a', 'é-run']);
    expect(second.version).toBeGreaterThan(first.version);
    const third = await reader.read();
    expect(third.version).toBe(second.version);
  });

  it('counts lines that are not events and keeps going', async () => {
    const path = fresh();
    writeFileSync(path, ['not json', '[]', '{"event":1,"payload":{}}', '{"event":"x","payload":{"runId":"","step":1,"timestamp":1}}', '{"event":"x","payload":{"runId":"r","step":"1","timestamp":1}}', '{"event":"x","payload":{"runId":"r","step":1,"timestamp":1,"parentRunId":7}}', ''].join('\n') + line('ok'));
    const snapshot = await new TraceFileReader(path).read();
    expect(snapshot.skippedLines).toBe(6);
    expect(snapshot.events.map((event) => event.payload.runId)).toEqual(['ok']);
  });

  it('starts over when the file is truncated, replaced or removed', async () => {
    const path = fresh();
    const reader = new TraceFileReader(path);
    writeFileSync(path, line('a') + line('b'));
    expect((await reader.read()).events).toHaveLength(2);
    writeFileSync(path, line('c'));
    expect((await reader.read()).events.map((event) => event.payload.runId)).toEqual(['c']);
    const other = `${path}.new`;
    writeFileSync(other, line('d') + line('e'));
    renameSync(other, path);
    expect((await reader.read()).events.map((event) => event.payload.runId)).toEqual(['d', 'e']);
    rmSync(path);
    await expect(reader.read()).resolves.toMatchObject({ events: [], exists: false });
  });
});
